/**
 * Rendering what users keep in their repositories: a directory with a kustomization file is checked as
 * `kustomize build` (or `kubectl kustomize`) prints it, a directory with `Chart.yaml` as `helm template` prints it,
 * as kube-linter does. The tools are run, never reimplemented: what users deploy is what they print. A missing tool
 * is an input problem that names what to install and the pipe that does the same by hand, never a silent lint of
 * the unrendered files.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { newestMinor } from '../core/api/schema';
import type { Input, InputProblem } from './files';
import { DEFAULT_MAX_INPUT_BYTES } from './read';
import { confine } from './render-confine';
import { CHART_FILE, KUSTOMIZATION_FILES, type Renderer, type RenderSettings } from './render-kinds';
export { renderedSources, templateAt, templateOrigins, type TemplateOrigin } from './render-origins';
import { RenderDeadline, runTool, toolEnvironment } from './render-process';

export {
  CHART_FILE,
  DEFAULT_RENDER_SETTINGS,
  KUSTOMIZATION_FILES,
  rendererOf,
  type Renderer,
  type RenderSettings,
} from './render-kinds';

/** The command a rendered input ran, for its display name and for messages. */
export function renderLabel(renderer: Renderer, tool: string): string {
  switch (renderer) {
    case 'helm':
      return 'helm template';
    case 'kustomize':
      return tool === 'kubectl' ? 'kubectl kustomize' : 'kustomize build';
    default: {
      const unknownRenderer: never = renderer;
      throw new Error(`unhandled renderer ${String(unknownRenderer)}`);
    }
  }
}

/** One way to run a renderer: the program and its arguments. */
interface Invocation {
  readonly program: string;
  readonly args: readonly string[];
}

/** What to run for `dir`, in order of preference: the next is tried only when the program is not installed. */
export function invocations(renderer: Renderer, dir: string, settings: RenderSettings, cwd: string): Invocation[] {
  switch (renderer) {
    case 'kustomize':
      return [
        { program: 'kustomize', args: ['build', dir] },
        { program: 'kubectl', args: ['kustomize', dir] },
      ];
    case 'helm': {
      const args = ['template'];
      if (settings.releaseName !== undefined) args.push(settings.releaseName);
      args.push(dir);
      for (const v of settings.values) args.push('--values', path.resolve(cwd, v));
      for (const s of settings.set) args.push('--set', s);
      if (settings.namespace !== undefined) args.push('--namespace', settings.namespace);
      // Always the version the run checks against: Helm's own default (1.20) renders what a chart emits only for
      // old clusters (a PodSecurityPolicy below 1.25), which the checks would then call removed.
      args.push('--kube-version', settings.kubernetesVersion ?? `1.${newestMinor()}`);
      return [{ program: 'helm', args }];
    }
    default: {
      const unknownRenderer: never = renderer;
      throw new Error(`unhandled renderer ${String(unknownRenderer)}`);
    }
  }
}

/** Why a directory was not rendered; `renderFailed` when its tool ran and failed (not refused, not missing). */
export type RenderProblem = InputProblem & { readonly renderFailed?: true };

/** The rendered text and the display name findings in it are reported under. */
export interface Rendered {
  readonly text: string;
  readonly display: string;
}

/** What one run's renders share: the deadline over them all and the most output one may print. */
export interface RenderContext {
  readonly deadline: RenderDeadline;
  /** The input limit (`--max-input-size`): rendered text is held to it as a file is. */
  readonly maxOutputBytes: number;
  /** Notes for standard error (links left out of a chart). */
  readonly note: (text: string) => void;
}

/**
 * Runs the renderer for a directory input. The environment's PATH finds the tools, so a test (or a user) picks
 * them by PATH; the tools get only the variables they need (render-process.ts). Resolves to the rendered text, or
 * the problem that kept it from being rendered.
 */
export async function renderDirectory(
  input: Extract<Input, { kind: 'render' }>,
  settings: RenderSettings,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  /** The command the pipe in a missing tool's message feeds. @default 'lint' */
  command: 'lint' | 'fix' = 'lint',
  context: RenderContext = {
    deadline: new RenderDeadline(settings.timeoutMs),
    maxOutputBytes: DEFAULT_MAX_INPUT_BYTES,
    note: () => undefined,
  },
): Promise<Rendered | RenderProblem> {
  const allowRemote = settings.allowRemote === true;
  const confined = await confine(input, cwd, { allowRemote, limit: context.maxOutputBytes });
  if ('refused' in confined) return { source: input.display, message: confined.refused };
  for (const note of confined.notes) context.note(note);
  const toolEnv = toolEnvironment(env, { network: allowRemote });
  try {
    for (const { program, args } of invocations(input.renderer, confined.dir, settings, cwd)) {
      const ran = await runTool(program, args, cwd, toolEnv, context);
      if (ran.kind === 'missing') continue;
      const label = renderLabel(input.renderer, program);
      if (ran.kind === 'failed') {
        return {
          source: input.display,
          message: `${label} failed: ${ran.message}${hintFor(input, ran.message, command)}`,
          ...(ran.reason === 'exit' ? { renderFailed: true as const } : {}),
        };
      }
      return { text: ran.stdout, display: `${input.display} (${label})` };
    }
  } finally {
    await confined.dispose();
  }
  return { source: input.display, message: missingToolMessage(input, command) };
}

/** The one input problem of a missing tool: what to install, the pipe that does the same, and the way out. */
export function missingToolMessage(
  input: Extract<Input, { kind: 'render' }>,
  command: 'lint' | 'fix' = 'lint',
): string {
  const dir = input.display;
  switch (input.renderer) {
    case 'kustomize':
      return (
        `is a Kustomize directory (${KUSTOMIZATION_FILES.join(', ')}) and neither kustomize nor kubectl is on PATH to render it: ` +
        `install kustomize (https://kubectl.docs.kubernetes.io/installation/kustomize/) or kubectl, ` +
        `or render it yourself: kustomize build ${dir} | k8s-windows ${command} -. ` +
        `(--no-render lints the files as they are, without the overlay's patches and images.)`
      );
    case 'helm':
      return (
        `is a Helm chart (${CHART_FILE}) and helm is not on PATH to render it: ` +
        `install Helm 3 (https://helm.sh/docs/intro/install/), ` +
        `or render it yourself: helm template my-release ${dir} | k8s-windows ${command} -. ` +
        `(--no-render reads the files as they are; templates are not YAML until rendered.)`
      );
    default: {
      const unknownRenderer: never = input.renderer;
      throw new Error(`unhandled renderer ${String(unknownRenderer)}`);
    }
  }
}

/** A hint for the failures users meet first. */
function hintFor(input: Extract<Input, { kind: 'render' }>, message: string, command: 'lint' | 'fix'): string {
  if (input.renderer === 'helm' && /missing in charts\/ directory|dependencies/.test(message)) {
    return ` Fetch the chart's dependencies first: helm dependency build ${input.display}`;
  }
  if (input.renderer === 'kustomize' && /(?:^|['\s])\.\.?\\/.test(message)) {
    // kustomize on Windows takes `..\base`; everywhere else `\` is part of a file name.
    return ` The kustomization names a path with Windows separators ('\\'), which kustomize reads as part of a file name outside Windows: write it with '/' (../base), which kustomize reads on every system.`;
  }
  if (input.renderer === 'kustomize' && message.includes('--enable-helm')) {
    // Not passed by us: it runs helm and may download charts, which a linter should not do unasked.
    return ` It inflates Helm charts (helmCharts), which kustomize does only when asked: render it yourself, kustomize build --enable-helm ${input.display} | k8s-windows ${command} -`;
  }
  if (input.renderer === 'kustomize' && /plugins disabled|--enable-exec|--enable-alpha-plugins/.test(message)) {
    // Not passed by us either: exec functions and plugins run programs from the repository being linted.
    return ` It runs KRM functions or plugins, which kustomize does only when asked: render it yourself, kustomize build --enable-alpha-plugins --enable-exec ${input.display} | k8s-windows ${command} -`;
  }
  return '';
}

/**
 * Drops, from the kustomizations a directory walk found, those another one it found builds on (its `resources`,
 * `bases` or `components`): they are checked as part of the overlay, with its patches and images, not alone. A
 * directory named on the command line is always rendered.
 */
export async function dropKustomizeBases(inputs: readonly Input[]): Promise<Input[]> {
  const kustomizations = inputs.filter(
    (i): i is Extract<Input, { kind: 'render' }> => i.kind === 'render' && i.renderer === 'kustomize',
  );
  if (kustomizations.length < 2) return [...inputs];
  const realOf = async (p: string): Promise<string> => fs.realpath(p).catch(() => path.resolve(p));
  const referenced = new Set<string>();
  for (const k of kustomizations) {
    for (const ref of await localReferences(k.path)) referenced.add(await realOf(ref));
  }
  const dropped = new Set<Input>();
  for (const k of kustomizations) if (k.discovered && referenced.has(await realOf(k.path))) dropped.add(k);
  return inputs.filter((i) => !dropped.has(i));
}

/** The local directories a kustomization names under `resources`, `bases` and `components`. */
async function localReferences(dir: string): Promise<string[]> {
  for (const name of KUSTOMIZATION_FILES) {
    let text: string;
    try {
      text = await fs.readFile(path.join(dir, name), 'utf8');
    } catch {
      continue;
    }
    let doc: unknown;
    try {
      doc = parse(text);
    } catch {
      return []; // kustomize itself reports the syntax error when it renders the directory
    }
    if (typeof doc !== 'object' || doc === null) return [];
    const refs: string[] = [];
    for (const key of ['resources', 'bases', 'components']) {
      const list = (doc as Record<string, unknown>)[key];
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        // Remote bases (git URLs, http) are not in the walk; a file entry is not a kustomization.
        if (typeof entry !== 'string' || /^[a-z][a-z0-9+.-]*:\/\/|^git@|^github\.com\//i.test(entry)) continue;
        refs.push(path.resolve(dir, entry));
      }
    }
    return refs;
  }
  return [];
}
