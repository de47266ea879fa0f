/**
 * The `k8s-windows` command as a function: argv and io in, exit code out. Everything is caught here, so users see
 * `k8s-windows: <message>` and never a stack trace; `main.ts` only wires it to the process.
 */
import { loadManifestsWithErrors, RULES, RULES_BY_ID, validateManifests } from '../core/validate';
import { validateOptionsOf } from '../core/validate/settings';
import type { Diagnostic } from '../core/model/types';
import { looksLikeObject } from '../core/model/key-case';
import { factsDates } from '../core/facts';
import { evaluationDate } from '../core/facts/support';
import {
  parseCommand,
  UsageError,
  type FactsCommand,
  type LintCommand,
  type RenderOptions,
  type RulesCommand,
} from './args';
import { factsReport, formatFactsText } from './format-facts';
import { runFix } from './fix';
import { runPolicies } from './policies';
import { collectInputs, describeFsError, failsOnProblems, STDIN_SOURCE, type Input, type InputProblem } from './files';
import { formatRulesJson, formatRulesMarkdown, formatRulesText, ruleJson } from './format-rules';
import { formatSarif } from './format-sarif';
import { checkedObjects, formatJunit, junitFailOn } from './format-junit';
import { formatGithub } from './format-github';
import { formatRulePage } from './rule-page';
import { formatText, nothingChecked, printable } from './format-text';
import { writeJson } from './json-out';
import { fixability, type FixSettings } from './fixable';
import { helpText } from './help';
import { createLocator, type LoadedObject, type LocatedDiagnostic } from './locate';
import { packageInfo, TOOL_NAME } from './package-info';
import { ConfigError, failsRun, resolveRunSettings } from './settings';
import { imageLookups } from './images';
import {
  DEFAULT_RENDER_SETTINGS,
  dropKustomizeBases,
  renderDirectory,
  renderedSources,
  type RenderContext,
  type RenderSettings,
} from './render';
import { RenderDeadline } from './render-process';
import { runDoctor } from './doctor';
import { DEFAULT_MAX_INPUT_BYTES, readFileBounded, readStreamBounded, type FileSnapshot } from './read';
import type { WriteFs } from './write';

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
  /**
   * The file operations `fix --write` uses (a test injects a full disk or a concurrent writer).
   * @default node's fs.promises
   */
  readonly fs?: WriteFs;
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
      case 'facts':
        return runFacts(command, io);
      case 'policies':
        return await runPolicies(command, io);
      case 'doctor':
        return await runDoctor(command, { stdout: io.stdout, stderr: io.stderr, env: io.env ?? process.env });
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
    if (err instanceof ConfigError) {
      for (const line of err.problems) io.stderr.write(`${TOOL_NAME}: ${line}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`${TOOL_NAME}: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_USAGE;
  }
}

function runFacts(command: FactsCommand, io: CliIO): number {
  const date = evaluationDate(command.date);
  const info = packageInfo();
  const tool = { name: info.name, version: info.version };
  switch (command.format) {
    case 'text':
      io.stdout.write(formatFactsText(date, tool));
      break;
    case 'json':
      io.stdout.write(`${JSON.stringify(factsReport(date, tool), null, 2)}\n`);
      break;
    default: {
      const unknownFormat: never = command.format;
      throw new Error(`unhandled format ${String(unknownFormat)}`);
    }
  }
  return EXIT_OK;
}

function runRules(command: RulesCommand, io: CliIO): number {
  if (command.id !== undefined) {
    const rule = RULES_BY_ID.get(command.id);
    if (rule === undefined) throw new UsageError([`unknown rule '${command.id}'.`], 'rules');
    io.stdout.write(command.format === 'json' ? `${JSON.stringify(ruleJson(rule), null, 2)}\n` : formatRulePage(rule));
    return EXIT_OK;
  }
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
  const started = new Date();
  const cwd = io.cwd ?? process.cwd();
  const { settings, ignored } = resolveRunSettings(command, cwd, io.env ?? process.env);
  const { read, problems } = await readInputs(withVersion(command, settings), io, ignored);
  const loaded: LoadedObject[] = [];
  const inputCount = read.length;
  /** Documents of walked files that are no Kubernetes objects, left out. */
  let skippedDocuments = 0;
  for (const { input, text, display } of read) {
    const { objects, errors } = loadManifestsWithErrors(text, display);
    if (input.kind === 'stdin' && objects.length === 0 && errors.length === 0 && !command.allowEmpty) {
      problems.push(emptyStdinProblem(display));
    }
    for (const object of objects) {
      // A directory also holds files that are not manifests (a chart's values.yaml, cdk8s's construct-metadata.json).
      if (input.kind === 'file' && input.discovered && !looksLikeObject(object)) {
        skippedDocuments++;
        continue;
      }
      loaded.push({ object, source: display });
    }
    // One by one: a spread of every malformed document's problem passes the engine's argument limit.
    for (const p of loadProblems(errors, text, display)) problems.push(p);
  }

  const objects = loaded.map((l) => l.object);
  const images = await imageLookups(
    () => objects,
    settings,
    (m) => io.stderr.write(`${TOOL_NAME}: warning: ${m}\n`),
  );
  const all = validateManifests(objects, {
    ...validateOptionsOf(settings),
    ...(images !== undefined ? { images } : {}),
    includeSuppressed: true,
  });
  const reported = all.filter((d) => d.suppression?.honoured !== true);
  const suppressed = all.filter((d) => d.suppression?.honoured === true);
  const shown = command.quiet ? reported.filter((d) => d.severity === 'error') : reported;

  // Input problems first: on a terminal they then sit above the report that the summary line closes.
  for (const p of problems) io.stderr.write(`${TOOL_NAME}: ${describeProblem(p)}\n`);
  // Findings in a rendered chart or kustomization are placed on the template or resource file they come from.
  const locate = await renderedSources(read, all, createLocator(loaded), cwd);
  // Inputs read, no object among them (a directory of compose files and values.yaml): said, never a clean pass. Not
  // a failure (kube-linter's default too): a pre-commit run on YAML that holds no manifest passes.
  const inputsAreFiles = read.every((r) => r.input.kind === 'file');
  const notes =
    loaded.length === 0 && problems.length === 0 ? [nothingChecked(inputCount, skippedDocuments, inputsAreFiles)] : [];

  switch (command.format) {
    case 'json':
      writeJson(
        jsonReport({
          findings: [...shown, ...(command.quiet ? [] : suppressed)].map(locate),
          problems,
          objects: loaded.length,
          inputs: inputCount,
          skippedDocuments,
          fixSettings: settings,
        }),
        io.stdout,
      );
      break;
    case 'sarif': {
      if (read.some((r) => r.input.kind === 'stdin') && command.stdinFilename === undefined) {
        io.stderr.write(
          `${TOOL_NAME}: note: SARIF results of standard input name '${STDIN_SOURCE}', which code scanning cannot place: pass --stdin-filename with the path of the rendered file in the repository, or lint that file.\n`,
        );
      }
      const log = formatSarif([...shown, ...suppressed].map(locate), {
        rules: RULES,
        tool: packageInfo(),
        cwd,
        inputProblems: problems,
        notes,
      });
      writeJson(log, io.stdout);
      break;
    }
    case 'junit':
      io.stdout.write(
        formatJunit([...shown, ...(command.quiet ? [] : suppressed)].map(locate), {
          objects: checkedObjects(loaded),
          problems,
          failOn: junitFailOn(reported, settings),
          tool: packageInfo(),
          timestamp: started,
        }),
      );
      break;
    case 'github':
      io.stdout.write(
        formatGithub(shown.map(locate), { cwd, problems, notes, ...githubWorkspace(io.env ?? process.env) }),
      );
      break;
    case 'text': {
      if (command.quiet && shown.length === 0) break;
      io.stdout.write(
        formatText(shown.map(locate), {
          color: useColor(io.env ?? process.env, io.isTTY === true),
          objectCount: loaded.length,
          inputCount,
          inputProblemCount: problems.length,
          markFixable: true,
          fixSettings: settings,
          suppressed: command.quiet ? [] : suppressed.map(locate),
          skippedDocuments,
          inputsAreFiles,
        }),
      );
      break;
    }
    default: {
      const unknownFormat: never = command.format;
      throw new Error(`unhandled format ${String(unknownFormat)}`);
    }
  }

  if (failsOnProblems(problems)) return EXIT_USAGE;
  return failsRun(reported, settings) ? EXIT_LINT_ERRORS : EXIT_OK;
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

/** The tool, what was checked and what was found: the JSON output of `lint` (and of `fix --format json`). */
export function jsonReport(input: {
  readonly findings: readonly LocatedDiagnostic[];
  readonly problems: readonly InputProblem[];
  readonly objects: number;
  readonly inputs: number;
  /** Documents of walked files that are no Kubernetes objects, left out (lint). @default - not in the summary */
  readonly skippedDocuments?: number;
  readonly extra?: Readonly<Record<string, unknown>>;
  /** The settings `fix` would read too: `fixable` is what plain fix changes, `fixableWith` the option it needs. @default {} */
  readonly fixSettings?: FixSettings;
}): Record<string, unknown> {
  const counts = { error: 0, warning: 0, info: 0 };
  let fixable = 0;
  let suppressed = 0;
  const findings = input.findings.map((item) => {
    const d = item.diagnostic;
    // A rule with a fixer, on a kind fix edits (it leaves Argo Workflows and Knative Services), that needs no option.
    const how = fixability(d, input.fixSettings ?? {});
    const isFixable = how === 'fix';
    if (d.suppression?.honoured === true) suppressed++;
    else {
      counts[d.severity]++;
      if (isFixable) fixable++;
    }
    return {
      ...jsonEntry(item),
      fixable: isFixable,
      ...(how !== undefined && how !== 'fix' ? { fixableWith: how.option } : {}),
    };
  });
  const info = packageInfo();
  return {
    tool: { name: info.name, version: info.version, factsChecked: factsDates() },
    summary: {
      inputs: input.inputs,
      objects: input.objects,
      ...(input.skippedDocuments !== undefined ? { skippedDocuments: input.skippedDocuments } : {}),
      errors: counts.error,
      warnings: counts.warning,
      info: counts.info,
      fixable,
      suppressed,
      inputProblems: input.problems.length,
    },
    ...(input.extra ?? {}),
    findings,
    inputProblems: input.problems.map(problemEntry),
  };
}

/** A finding in JSON output: the engine's fields plus where it points, as text and SARIF give it. */
function jsonEntry(item: LocatedDiagnostic): Diagnostic & { source?: string; line?: number; column?: number } {
  return {
    ...item.diagnostic,
    ...(item.source !== undefined ? { source: item.source } : {}),
    ...(item.line !== undefined ? { line: item.line, column: item.column } : {}),
    // A finding in a rendered chart or kustomization: where it is in what the tool printed.
    ...(item.rendered !== undefined ? { rendered: item.rendered } : {}),
  };
}

/** An input problem in JSON output: where, as far as known, and what. */
function problemEntry(p: InputProblem): Record<string, unknown> {
  return {
    message: p.message,
    // Only a problem that does not fail the run says so: an entry without it is an error (exit 2), as before.
    ...(p.severity !== undefined ? { severity: p.severity } : {}),
    ...(p.source !== undefined ? { source: p.source } : {}),
    ...(p.line !== undefined ? { line: p.line, column: p.column ?? 1 } : {}),
  };
}

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
/** `file:line:col: message`, with as much of the location as is known; file names and text escaped. */
export function describeProblem(p: InputProblem): string {
  const message = `${p.severity === 'warning' ? 'warning: ' : ''}${printable(p.message)}`;
  if (p.source === undefined) return message;
  if (p.line === undefined) return `${printable(p.source)}: ${message}`;
  return `${printable(p.source)}:${p.line}:${p.column ?? 1}: ${message}`;
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

/** `GITHUB_WORKSPACE`, where a runner checked the repository out: annotations name files relative to it. */
export function githubWorkspace(env: Readonly<Record<string, string | undefined>>): { workspace?: string } {
  const workspace = env.GITHUB_WORKSPACE;
  return workspace !== undefined && workspace !== '' ? { workspace } : {};
}
