/**
 * The `k8s-windows` command as a function: argv and io in, exit code out. Everything is caught here, so users see
 * `k8s-windows: <message>` and never a stack trace; `main.ts` only wires it to the process.
 */
import { promises as fs } from 'node:fs';
import { loadManifestsWithErrors, RULES, validateManifests } from '../core/validate';
import type { Diagnostic, ValidateOptions } from '../core/validate/types';
import { parseCommand, UsageError, type LintCommand, type RulesCommand } from './args';
import { runFix } from './fix';
import { collectInputs, describeFsError, STDIN_SOURCE, type Input, type InputProblem } from './files';
import { formatRulesJson, formatRulesMarkdown, formatRulesText } from './format-rules';
import { formatSarif } from './format-sarif';
import { formatText } from './format-text';
import { helpText } from './help';
import { createLocator, type LoadedObject, type LocatedDiagnostic } from './locate';
import { packageInfo, TOOL_NAME } from './package-info';

/** Anything with `write(string)`: a process stream, or a test sink. */
export interface OutputSink {
  write(chunk: string): unknown;
}

export interface CliIO {
  readonly stdout: OutputSink;
  readonly stderr: OutputSink;
  /**
   * What `-` reads: a stream (process.stdin) or the text itself.
   * @default - none: `-` is reported as unreadable input
   */
  readonly stdin?: AsyncIterable<string | Uint8Array> | string;
  /**
   * Whether stdout is a terminal (colour in text output).
   * @default false
   */
  readonly isTTY?: boolean;
  /**
   * Directory that relative paths are resolved against and shown relative to.
   * @default process.cwd()
   */
  readonly cwd?: string;
  /**
   * Environment for NO_COLOR / FORCE_COLOR / TERM.
   * @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Exit codes: documented in `k8s-windows lint --help`. */
export const EXIT_OK = 0;
export const EXIT_LINT_ERRORS = 1;
export const EXIT_USAGE = 2;

/** Runs one command; resolves to the exit code and never rejects. */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const command = parseCommand(
      argv,
      RULES.map((r) => r.id),
    );
    switch (command.kind) {
      case 'help':
        io.stdout.write(helpText(command.topic));
        return EXIT_OK;
      case 'version':
        io.stdout.write(`${packageInfo().version}\n`);
        return EXIT_OK;
      case 'rules':
        return runRules(command, io);
      case 'lint':
        return await runLint(command, io);
      case 'fix':
        return await runFix(command, io);
      default: {
        const unknownCommand: never = command;
        throw new Error(`unhandled command ${JSON.stringify(unknownCommand)}`);
      }
    }
  } catch (err) {
    if (err instanceof UsageError) {
      for (const line of err.message.split('\n')) io.stderr.write(`${TOOL_NAME}: ${line}\n`);
      const helpCommand = err.topic ? `${TOOL_NAME} ${err.topic} --help` : `${TOOL_NAME} --help`;
      io.stderr.write(`Run '${helpCommand}' for usage.\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`${TOOL_NAME}: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_USAGE;
  }
}

function runRules(command: RulesCommand, io: CliIO): number {
  switch (command.format) {
    case 'text':
      io.stdout.write(formatRulesText(RULES));
      break;
    case 'json':
      io.stdout.write(formatRulesJson(RULES));
      break;
    case 'markdown':
      io.stdout.write(formatRulesMarkdown(RULES));
      break;
    default: {
      const unknownFormat: never = command.format;
      throw new Error(`unhandled format ${String(unknownFormat)}`);
    }
  }
  return EXIT_OK;
}

async function runLint(command: LintCommand, io: CliIO): Promise<number> {
  const { read, problems } = await readInputs(command, io);
  const loaded: LoadedObject[] = [];
  const inputCount = read.length;
  for (const { input, text, display } of read) {
    const { objects, errors } = loadManifestsWithErrors(text, display);
    if (input.kind === 'stdin' && objects.length === 0 && errors.length === 0 && !command.allowEmpty) {
      problems.push(emptyStdinProblem(display));
    }
    for (const object of objects) {
      // A directory also holds files that are not manifests (a chart's values.yaml, cdk8s's construct-metadata.json).
      if (input.kind === 'file' && input.discovered && !hasKind(object)) continue;
      loaded.push({ object, source: display });
    }
    for (const e of errors) {
      problems.push({ source: e.source ?? display, line: e.line, column: e.column, message: e.message });
    }
  }

  const options: ValidateOptions = {
    rules: command.rules,
    ...(command.windowsRelease !== undefined ? { windowsRelease: command.windowsRelease } : {}),
    ...(command.kubernetesVersion !== undefined ? { kubernetesVersion: command.kubernetesVersion } : {}),
    ...(command.cloud !== undefined ? { cloud: command.cloud } : {}),
  };
  const all = validateManifests(
    loaded.map((l) => l.object),
    options,
  );
  const diagnostics: Diagnostic[] = command.quiet ? all.filter((d) => d.severity === 'error') : all;

  // Input problems first: on a terminal they then sit above the report that the summary line closes.
  for (const p of problems) io.stderr.write(`${TOOL_NAME}: ${describeProblem(p)}\n`);

  switch (command.format) {
    case 'json': {
      const locate = createLocator(loaded);
      io.stdout.write(
        `${JSON.stringify([...problems.map(problemEntry), ...diagnostics.map((d) => jsonEntry(locate(d)))], null, 2)}\n`,
      );
      break;
    }
    case 'sarif': {
      const locate = createLocator(loaded);
      const log = formatSarif(diagnostics.map(locate), {
        rules: RULES,
        tool: packageInfo(),
        cwd: io.cwd ?? process.cwd(),
        inputProblems: problems,
      });
      io.stdout.write(`${JSON.stringify(log, null, 2)}\n`);
      break;
    }
    case 'text': {
      if (command.quiet && diagnostics.length === 0) break;
      const locate = createLocator(loaded);
      io.stdout.write(
        formatText(diagnostics.map(locate), {
          color: useColor(io.env ?? process.env, io.isTTY === true),
          objectCount: loaded.length,
          inputCount,
          inputProblemCount: problems.length,
          markFixable: true,
        }),
      );
      break;
    }
    default: {
      const unknownFormat: never = command.format;
      throw new Error(`unhandled format ${String(unknownFormat)}`);
    }
  }

  if (problems.length > 0) return EXIT_USAGE;
  return diagnostics.some((d) => d.severity === 'error') ? EXIT_LINT_ERRORS : EXIT_OK;
}

/** The rule id JSON output gives input problems (unreadable files, malformed YAML): they are not rules. */
export const INPUT_PROBLEM_ID = 'input-unreadable';

/** A diagnostic in JSON output: the engine's fields plus where it points, as text and SARIF give it. */
function jsonEntry(item: LocatedDiagnostic): Diagnostic & { source?: string; line?: number; column?: number } {
  return {
    ...item.diagnostic,
    ...(item.source !== undefined ? { source: item.source } : {}),
    ...(item.line !== undefined ? { line: item.line, column: item.column } : {}),
  };
}

/** An input problem in JSON output, shaped like a diagnostic so one array holds everything. */
function problemEntry(p: InputProblem): Record<string, unknown> {
  return {
    ruleId: INPUT_PROBLEM_ID,
    severity: 'error',
    message: p.message,
    path: '',
    resource: p.source !== undefined ? { source: p.source } : {},
    ...(p.source !== undefined ? { source: p.source } : {}),
    ...(p.line !== undefined ? { line: p.line, column: p.column ?? 1 } : {}),
  };
}

/** An input that was read: its text and the name it is reported under (`--stdin-filename` for standard input). */
export interface ReadInput {
  readonly input: Input;
  readonly text: string;
  readonly display: string;
}

/**
 * Collects and reads the inputs of `lint` and `fix`: what was read, and every problem met on the way (missing
 * paths, unreadable or binary input), in the order of the inputs.
 */
export async function readInputs(
  command: { readonly inputs: readonly string[]; readonly stdinFilename?: string },
  io: CliIO,
): Promise<{ read: ReadInput[]; problems: InputProblem[] }> {
  const collected = await collectInputs(command.inputs, io.cwd ?? process.cwd());
  const problems: InputProblem[] = [...collected.problems];
  const stdinName = command.stdinFilename ?? STDIN_SOURCE;
  const displays = collected.inputs.map((input) => (input.kind === 'stdin' ? stdinName : input.display));
  const texts = await Promise.all(collected.inputs.map((input, i) => readInput(input, io, displays[i])));
  const read: ReadInput[] = [];
  collected.inputs.forEach((input, i) => {
    const text = texts[i];
    if (typeof text === 'string') read.push({ input, text, display: displays[i] });
    else problems.push(text);
  });
  return { read, problems };
}

/** Standard input that held no object: usually the command before the pipe failed (exit 2 unless --allow-empty). */
export function emptyStdinProblem(display: string): InputProblem {
  return {
    source: display,
    message:
      'standard input has no Kubernetes objects: did the command before the pipe fail? Pass --allow-empty to accept empty input.',
  };
}

/** The text of one input, or the problem that kept it from being read. */
export async function readInput(input: Input, io: CliIO, display: string): Promise<string | InputProblem> {
  let bytes: Buffer;
  switch (input.kind) {
    case 'stdin': {
      if (io.stdin === undefined) return { source: display, message: 'standard input is not available.' };
      try {
        bytes = await readAll(io.stdin);
      } catch (err) {
        return { source: display, message: `cannot read: ${describeFsError(err)}` };
      }
      break;
    }
    case 'file':
      try {
        bytes = await fs.readFile(input.path);
      } catch (err) {
        return { source: display, message: `cannot read: ${describeFsError(err)}` };
      }
      break;
    default: {
      const unknownInput: never = input;
      throw new Error(`unhandled input ${JSON.stringify(unknownInput)}`);
    }
  }
  const decoded = decodeText(bytes);
  return typeof decoded === 'string' ? decoded : { source: display, message: decoded.problem };
}

async function readAll(stream: AsyncIterable<string | Uint8Array> | string): Promise<Buffer> {
  if (typeof stream === 'string') return Buffer.from(stream, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  return Buffer.concat(chunks);
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
/** `file:line:col: message`, with as much of the location as is known. */
export function describeProblem(p: InputProblem): string {
  if (p.source === undefined) return p.message;
  if (p.line === undefined) return `${p.source}: ${p.message}`;
  return `${p.source}:${p.line}:${p.column ?? 1}: ${p.message}`;
}

/**
 * Colour when stdout is a terminal, unless NO_COLOR is set (https://no-color.org) or TERM is dumb; FORCE_COLOR
 * overrides both ways (`0`/`false` off, anything else on), as Node's own tty does.
 */
export function useColor(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

function hasKind(object: unknown): boolean {
  return typeof object === 'object' && object !== null && 'kind' in object;
}
