/**
 * `fix --check`, the formatter convention of prettier, ruff and black: write nothing, list the files a fix would
 * change, and fail (exit 1) when there is one. The report says which files and how many changes each.
 */
import type { FixChange } from '../core/fix';
import type { LocatedDiagnostic } from './locate';
import { TOOL_NAME } from './package-info';
import type { Renderer } from './render-kinds';

/** A chart or kustomization directory, as shown: fix --write does not rewrite it, so it is fixed another way. */
export interface RenderedDirectory {
  readonly renderer: Renderer;
  /** The directory as shown (`charts/web`). */
  readonly dir: string;
}

/** A file (or rendered chart or kustomization) a fix would change, and how many changes it would get. */
export interface WouldFix {
  readonly source: string;
  readonly changes: number;
  /** A chart or kustomization: its rendered output would change, which no file holds. */
  readonly rendered?: RenderedDirectory;
}

/** The inputs whose text a fix changes, in input order. */
export function wouldChange(
  inputs: readonly {
    readonly source: string;
    readonly before: string;
    readonly after: string;
    readonly rendered?: RenderedDirectory;
  }[],
  changes: readonly FixChange[],
): WouldFix[] {
  return inputs
    .filter((i) => i.before !== i.after)
    .map((i) => ({
      source: i.source,
      changes: changes.filter((c) => c.resource.source === i.source).length,
      ...(i.rendered !== undefined ? { rendered: i.rendered } : {}),
    }));
}

/**
 * How to make the fix in a chart or kustomization, which `fix --write` refuses (it never rewrites templates or
 * bases): as Helm installs the chart (a post-renderer), as Kustomize builds the overlay (a KRM function).
 */
export function renderedFixHint(rendered: RenderedDirectory): string {
  switch (rendered.renderer) {
    case 'helm':
      return `fix the chart's manifests as Helm installs them: helm install NAME ${rendered.dir} --post-renderer ./k8s-windows-fix.sh (see '${TOOL_NAME} fix --help')`;
    case 'kustomize':
      return `fix the kustomization's manifests as Kustomize builds them, with ${TOOL_NAME} fix --krm as a KRM function in ${rendered.dir} (see '${TOOL_NAME} fix --help'), or pass --no-render to fix its files as plain manifests`;
    default: {
      const unknownRenderer: never = rendered.renderer;
      throw new Error(`unhandled renderer ${String(unknownRenderer)}`);
    }
  }
}

/** What to run to make the fixes: `fix --write` for files, the render's own way for each chart and kustomization. */
function howToFix(files: readonly WouldFix[]): string {
  const plain = files.filter((f) => f.rendered === undefined);
  const rendered = files.flatMap((f) => (f.rendered !== undefined ? [f.rendered] : []));
  if (rendered.length === 0) return ` Run '${TOOL_NAME} fix --write' to fix.`;
  const ways = rendered.map((r) => `For ${r.dir}, ${renderedFixHint(r)}.`);
  // fix --write never rewrites templates or bases: it is named only for the files it does rewrite.
  const write = plain.length > 0 ? ` Run '${TOOL_NAME} fix --write' to fix the files.` : '';
  return `${write} ${ways.join(' ')}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `Would fix: web.yaml (3 changes)` per file, then one summary line (left out with `--quiet`). */
export function checkSummary(files: readonly WouldFix[], inputs: number, quiet: boolean): string {
  const lines = files.map((f) => `Would fix: ${f.source} (${plural(f.changes, 'change')})`);
  if (!quiet) {
    lines.push(
      files.length === 0
        ? `${TOOL_NAME} fix --check: nothing to fix in ${plural(inputs, 'input')}.`
        : `${TOOL_NAME} fix --check: ${plural(files.length, 'file')} would be fixed, ${inputs - files.length} left as ${inputs - files.length === 1 ? 'it is' : 'they are'}.${howToFix(files)}`,
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/**
 * The changes a fix would make as error findings, so the JUnit and GitHub reports show each where it applies.
 * `rendered` names the inputs that are charts or kustomizations (by display name): their fix is not `fix --write`.
 */
export function changesAsFindings(
  changes: readonly FixChange[],
  rendered: ReadonlyMap<string, RenderedDirectory> = new Map(),
): LocatedDiagnostic[] {
  return changes.map((c) => {
    const directory = c.resource.source !== undefined ? rendered.get(c.resource.source) : undefined;
    return changeFinding(
      c,
      directory !== undefined ? `${renderedFixHint(directory)}.` : `run '${TOOL_NAME} fix --write'.`,
    );
  });
}

function changeFinding(c: FixChange, fix: string): LocatedDiagnostic {
  return {
    diagnostic: {
      ruleId: c.ruleId,
      severity: 'error',
      message: `${TOOL_NAME} fix would change this: ${c.message}`,
      fix,
      path: c.path,
      resource: c.resource,
    },
    ...(c.resource.source !== undefined ? { source: c.resource.source } : {}),
  };
}
