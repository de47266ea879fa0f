/**
 * Reading the inputs of `lint` and `fix`: the paths named collected (files.ts), charts and kustomizations rendered
 * (render.ts), files and standard input read within the size limit and decoded as kubectl decodes them, and the
 * problems met on the way said as input problems, never thrown, so the rest is still checked.
 */
import { TOOL_NAME } from './package-info';
import type { RenderOptions } from './args';
import { collectInputs, describeFsError, STDIN_SOURCE, type Input, type InputProblem } from './files';
import { printable } from './format-text';
import type { CliIO } from './io';
import {
  DEFAULT_RENDER_SETTINGS,
  dropKustomizeBases,
  renderDirectory,
  type RenderContext,
  type RenderSettings,
} from './render';
import { RenderDeadline } from './render-process';
import { DEFAULT_MAX_INPUT_BYTES, readFileBounded, readStreamBounded, type FileSnapshot } from './read';

/** An input that was read: its text and the name it is reported under (`--stdin-filename` for standard input). */
export interface ReadInput {
  readonly input: Input;
  readonly text: string;
  readonly display: string;
  /** A file as it was read, for `fix --write`; none for standard input. */
  readonly snapshot?: FileSnapshot;
}

/**
 * Collects and reads the inputs of `lint` and `fix`: what was read, and every problem met on the way (missing
 * paths, unreadable or binary input), in the order of the inputs.
 */
export async function readInputs(
  command: {
    readonly kind?: 'lint' | 'fix';
    readonly inputs: readonly string[];
    readonly stdinFilename?: string;
    readonly rendering?: RenderOptions;
    readonly kubernetesVersion?: string;
    readonly maxInputSize?: number;
  },
  io: CliIO,
  ignored: (input: Input) => boolean = () => false,
  /** Problems that stop the run before anything is read or rendered (fix --write on a chart). @default none */
  refuse: (inputs: readonly Input[]) => InputProblem[] = () => [],
): Promise<{ read: ReadInput[]; problems: InputProblem[] }> {
  const cwd = io.cwd ?? process.cwd();
  const rendering: RenderSettings = {
    ...(command.rendering ?? DEFAULT_RENDER_SETTINGS),
    ...(command.kubernetesVersion !== undefined ? { kubernetesVersion: command.kubernetesVersion } : {}),
  };
  const all = await collectInputs(command.inputs, cwd, { render: rendering.render });
  for (const note of all.notes) io.stderr.write(`${TOOL_NAME}: note: ${printable(note)}\n`);
  // Bases are dropped before the ignore list applies: an ignored overlay does not make its base stand alone.
  const unbased = await dropKustomizeBases(all.inputs);
  let ignoredFound = 0;
  const inputs = unbased.filter((input) => {
    if (!ignored(input)) return true;
    // A file named on the command line and ignored by the config is said, so an empty report does not mislead.
    if (input.kind !== 'stdin' && !input.discovered) {
      io.stderr.write(`${TOOL_NAME}: note: ${printable(input.display)} is ignored by the config file's ignore list.\n`);
    } else ignoredFound++;
    return false;
  });
  const ignoredCount = unbased.length - inputs.length;
  if (ignoredFound > 0) {
    io.stderr.write(
      `${TOOL_NAME}: note: ${ignoredFound} ${ignoredFound === 1 ? 'input' : 'inputs'} (files, charts or kustomizations) found in the directories named ${ignoredFound === 1 ? 'is' : 'are'} ignored by the config file's ignore list.\n`,
    );
  }
  if ((rendering.values.length > 0 || rendering.set.length > 0) && !inputs.some(isHelmInput)) {
    io.stderr.write(
      `${TOOL_NAME}: note: --values and --set apply to Helm charts, and no input is a chart directory.\n`,
    );
  }
  const refused = refuse(inputs);
  if (refused.length > 0) return { read: [], problems: [...all.problems, ...refused] };
  const problems: InputProblem[] = [...all.problems];
  if (inputs.length === 0 && ignoredCount > 0) {
    // `ignore: ['**']` must not turn a CI run green with nothing checked.
    problems.push({
      message: `nothing was checked: all ${ignoredCount} input file${ignoredCount === 1 ? ' is' : 's are'} ignored by the config file's ignore list. Narrow the list, or name other inputs.`,
    });
  }
  const stdinName = command.stdinFilename ?? STDIN_SOURCE;
  const displays = inputs.map((input) => (input.kind === 'stdin' ? stdinName : input.display));
  const limit = command.maxInputSize ?? DEFAULT_MAX_INPUT_BYTES;
  // One at a time: a directory of large files is held in memory as text once, not also as bytes all at once; and
  // each render tool is a large Go program.
  const read: ReadInput[] = [];
  // One deadline over every render of the run, and rendered text held to the input limit as a file is.
  const renderContext: RenderContext = {
    deadline: new RenderDeadline(rendering.timeoutMs),
    maxOutputBytes: limit,
    note: (text) => io.stderr.write(`${TOOL_NAME}: note: ${printable(text)}\n`),
  };
  for (const [i, input] of inputs.entries()) {
    if (input.kind === 'render') {
      const rendered = await renderDirectory(input, rendering, cwd, io.env ?? process.env, command.kind, renderContext);
      if ('text' in rendered) read.push({ input, text: rendered.text, display: rendered.display });
      else problems.push(input.discovered && rendered.renderFailed === true ? walkedRenderFailure(rendered) : rendered);
      continue;
    }
    const got = await readInput(input, io, displays[i], limit);
    if ('message' in got) problems.push(got);
    else
      read.push({ input, text: got.text, display: displays[i], ...(got.snapshot ? { snapshot: got.snapshot } : {}) });
  }
  return { read, problems };
}

/**
 * A chart or kustomization a walk met and its tool could not render (a sample written for Windows paths, a missing
 * file): one broken directory does not sink the tree. Said as a warning; named on the command line, it is an error.
 */
function walkedRenderFailure(problem: InputProblem): InputProblem {
  return {
    ...problem,
    severity: 'warning',
    message: `${problem.message} (Found in the directory walk: the rest is linted. Name it on the command line to make this an error, or list it in the config file's ignore.)`,
  };
}

/** The command with the Kubernetes version the run checks against (the config file's, unless the command line gives one): what Helm's `.Capabilities` should say. */
export function withVersion<C extends { readonly kubernetesVersion?: string }>(
  command: C,
  settings: { readonly kubernetesVersion?: string },
): C {
  return settings.kubernetesVersion === undefined
    ? command
    : { ...command, kubernetesVersion: settings.kubernetesVersion };
}

function isHelmInput(input: Input): boolean {
  return input.kind === 'render' && input.renderer === 'helm';
}

/** Standard input that held no object: usually the command before the pipe failed (exit 2 unless --allow-empty). */
export function emptyStdinProblem(display: string): InputProblem {
  return {
    source: display,
    message:
      'standard input has no Kubernetes objects: did the command before the pipe fail? Pass --allow-empty to accept empty input.',
  };
}

/** The text of one input (and the file as read), or the problem that kept it from being read. */
export async function readInput(
  input: Input,
  io: CliIO,
  display: string,
  limit: number = DEFAULT_MAX_INPUT_BYTES,
): Promise<{ readonly text: string; readonly snapshot?: FileSnapshot } | InputProblem> {
  let bytes: Buffer;
  let snapshot: FileSnapshot | undefined;
  try {
    switch (input.kind) {
      case 'stdin': {
        if (io.stdin === undefined) return { source: display, message: 'standard input is not available.' };
        bytes = await readStreamBounded(io.stdin, limit);
        break;
      }
      case 'render':
        throw new Error(`${input.display} is rendered by renderDirectory, not read`);
      case 'file':
        ({ bytes, snapshot } = await readFileBounded(input.path, limit));
        break;
      default: {
        const unknownInput: never = input;
        throw new Error(`unhandled input ${JSON.stringify(unknownInput)}`);
      }
    }
  } catch (err) {
    if (err instanceof Error && err.name === 'InputTooLargeError') return { source: display, message: err.message };
    return { source: display, message: `cannot read: ${describeFsError(err)}` };
  }
  const decoded = decodeText(bytes);
  if (typeof decoded !== 'string') return { source: display, message: decoded.problem };
  return { text: decoded, ...(snapshot !== undefined ? { snapshot } : {}) };
}

/** `ignoreBOM` keeps a UTF-8 byte-order mark in the text: `fix` gives it back on every path, stdout included. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Bytes to text as kubectl reads manifests: a byte-order mark picks UTF-8, UTF-16LE or UTF-16BE (what Windows
 * PowerShell 5.1's `>` writes), anything else must be UTF-8. Binary or invalid input is refused, never linted
 * as "no problems". (cli-runtime's FileVisitor decodes through `unicode.BOMOverride(unicode.UTF8.NewDecoder())`.)
 */
export function decodeText(bytes: Buffer): string | { readonly problem: string } {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  if (bytes.includes(0)) {
    return {
      problem:
        'is binary, or UTF-16 without a byte-order mark (it holds NUL bytes): save it as UTF-8, or UTF-16 with a byte-order mark.',
    };
  }
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return { problem: `is not valid UTF-8 (byte offset ${at}): save it as UTF-8.` };
  }
}

/** Offset of the first byte that starts a malformed UTF-8 sequence, for the message. */
function firstInvalidUtf8(b: Buffer): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    const more =
      c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (more < 0) return i;
    for (let k = 1; k <= more; k++) if (i + k >= b.length || (b[i + k] & 0xc0) !== 0x80) return i;
    i += more + 1;
  }
  return b.length;
}

/**
 * Malformed YAML as input problems. A text with Helm's `{{ ... }}` actions is an unrendered chart template: one
 * hint says to render it first, instead of a list of YAML syntax errors only.
 */
export function loadProblems(
  errors: readonly { source?: string; line: number; column: number; message: string }[],
  text: string,
  display: string,
): InputProblem[] {
  if (errors.length === 0) return [];
  const out: InputProblem[] = errors.map((e) => ({
    source: e.source ?? display,
    line: e.line,
    column: e.column,
    message: e.message,
  }));
  if (/\{\{-?\s/.test(text)) {
    out.unshift({
      source: display,
      message: `looks like an unrendered Helm template ({{ ... }}): lint its chart directory (${TOOL_NAME} lint ./chart renders it with helm), or render the chart first and lint the output, e.g. helm template my-release ./chart | ${TOOL_NAME} lint --stdin-filename rendered.yaml -`,
    });
  }
  return out;
}
