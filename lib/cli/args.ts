/**
 * Command-line parsing for `k8s-windows`: argv in, a typed command out, or a `UsageError` naming every problem.
 * Built on Node's `util.parseArgs`; option checks (unknown options, missing values, rule ids) are ours so the
 * messages name the command and suggest close matches.
 */
import { parseArgs } from 'node:util';
import { parseKubernetesMinor, parseWindowsRelease, type WindowsRelease } from '../core/releases';
import { parseTaint } from '../core/fix/options';
import type { Taint } from '../core/target';
import { CLOUDS, type Cloud } from '../core/cloud-gates';
import type { RuleSetting, Severity } from '../core/model/types';
import { DEFAULT_CLUSTER_TIMEOUT_MS } from '../cluster/read';
import { closeMatches, unknownRuleFix } from '../core/suggest';
import {
  MAX_RESOLVE_TIMEOUT_SECONDS,
  parseResolveTimeout,
  readMirrors,
  readRegistryHosts,
  RULE_SETTINGS,
} from '../core/validate/settings';
import type { RenderSettings } from './render-kinds';
import { checkEvaluationDate } from '../core/facts/support';
import { parseByteSize } from './read';
import { POLICY_MODES, type PolicyMode } from '../core/policies/types';

/** Formats of the findings `lint` prints and `fix` reports: one writer (report.ts) for both. */
export const REPORT_FORMATS = ['text', 'json', 'sarif', 'junit', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Output formats of `lint`. */
export const LINT_FORMATS = REPORT_FORMATS;
export type LintFormat = ReportFormat;

/** Output formats of `rules`. */
export const RULES_FORMATS = ['text', 'json', 'markdown'] as const;
export type RulesFormat = (typeof RULES_FORMATS)[number];

/** The input argument that means standard input. */
export const STDIN_ARG = '-';

/** Formats of the report of `fix` (its changes, the fixes not made and the findings left). */
export const FIX_REPORTS = REPORT_FORMATS;
export type FixReport = ReportFormat;

/** What fails a run (`--fail-on`): findings at this severity or above. */
export const FAIL_ON = ['error', 'warning', 'info'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** The options `lint` and `fix` share: the config file and the exit policy. */
export interface RunPolicy {
  /** `--config FILE`: the config file to read instead of the one found upward. */
  readonly config?: string;
  /** `--no-config`: read no config file. */
  readonly noConfig: boolean;
  /** `--fail-on`: the lowest severity that fails the run. @default 'error' (or the config file's) */
  readonly failOn?: FailOn;
  /** `--max-warnings N`: fail when more warnings than N are left. @default - no limit */
  readonly maxWarnings?: number;
  /** `--resolve-images`: ask the registries about every image. @default false */
  readonly resolveImages: boolean;
  /** `--offline`: answer image questions from the cache only. @default false */
  readonly offline: boolean;
  /** `--registry-mirror HOST=URL`, repeatable. @default {} */
  readonly registryMirrors: Readonly<Record<string, string>>;
  /** `--image-cache DIR`. @default - the platform's cache directory */
  readonly imageCache?: string;
  /** `--insecure-registry HOST`, repeatable: plain HTTP, credentials allowed over it. @default [] */
  readonly insecureRegistries: readonly string[];
  /** `--no-mirror-fallback`: a mirror's answer is final. @default false */
  readonly noMirrorFallback: boolean;
  /** `--resolve-timeout SECONDS`: the deadline of all registry lookups. @default - the config file's, else 30 */
  readonly resolveTimeout?: number;
  /** `--max-input-size SIZE`: the most bytes read from one input. @default 64 MiB (DEFAULT_MAX_INPUT_BYTES) */
  readonly maxInputSize?: number;
}

/** How `lint` and `fix` render chart and kustomization directories (`--no-render`, `--values`, `--set`, ...). */
export type RenderOptions = Omit<RenderSettings, 'kubernetesVersion'>;

/** Output formats of `facts`. */
export const FACTS_FORMATS = ['text', 'json'] as const;
export type FactsFormat = (typeof FACTS_FORMATS)[number];

export type CommandName = 'lint' | 'fix' | 'rules' | 'facts' | 'policies' | 'doctor';
export const COMMANDS: readonly CommandName[] = ['lint', 'fix', 'rules', 'facts', 'policies', 'doctor'];

export interface LintCommand extends RunPolicy {
  readonly kind: 'lint';
  /** Files, directories and `-`, in the order given. */
  readonly inputs: readonly string[];
  readonly format: LintFormat;
  /** Per-rule settings from `--disable` and `--severity`, the last mention of a rule winning. */
  readonly rules: Readonly<Record<string, RuleSetting>>;
  readonly windowsRelease?: WindowsRelease;
  readonly kubernetesVersion?: string;
  /** The cloud the cluster runs on, for advice that depends on its defaults. */
  readonly cloud?: Cloud;
  /** `--date YYYY-MM-DD`: the day support and retirements are judged at. @default - today */
  readonly date?: string;
  /** Report errors only. */
  readonly quiet: boolean;
  /** Accept empty standard input (no objects) instead of failing with exit code 2. */
  readonly allowEmpty: boolean;
  /** The name standard input is reported under (SARIF locations, text and JSON output). */
  readonly stdinFilename?: string;
  /** Rendering of chart and kustomization directories. */
  readonly rendering: RenderOptions;
}

export interface FixCommand extends RunPolicy {
  readonly kind: 'fix';
  /** Files, directories and `-`, in the order given (`-` alone with `--krm`). */
  readonly inputs: readonly string[];
  /** Rewrite files in place instead of printing to standard output. */
  readonly write: boolean;
  /** Print a unified diff of what would change; write nothing. */
  readonly diff: boolean;
  /** Report what would change; print and write no manifests. */
  readonly dryRun: boolean;
  /**
   * `--check`: write and print no manifests; list the files a fix would change and exit 1 when there is one
   * (prettier's, ruff's and black's convention).
   * @default false
   */
  readonly check: boolean;
  /** The report's format (`--format`, or its older name `--report`). */
  readonly report: FixReport;
  /** Write the report to this file instead of the terminal. */
  readonly reportFile?: string;
  /** Report only the errors left: no change lines, no warnings or advice. */
  readonly quiet: boolean;
  /** Read and write a KRM ResourceList (a Kustomize exec function). */
  readonly krm: boolean;
  readonly rules: Readonly<Record<string, RuleSetting>>;
  readonly windowsRelease?: WindowsRelease;
  readonly kubernetesVersion?: string;
  readonly tolerations: readonly Taint[];
  readonly cloud?: Cloud;
  /** `--date YYYY-MM-DD`: the day support and retirements are judged at. @default - today */
  readonly date?: string;
  readonly runtimeClassName?: string;
  readonly pinLinux: boolean;
  /** Accept empty standard input instead of failing with exit code 2, as lint does. */
  readonly allowEmpty: boolean;
  /** The name standard input is reported under. */
  readonly stdinFilename?: string;
  /** Rendering of chart and kustomization directories. */
  readonly rendering: RenderOptions;
}

export interface RulesCommand {
  readonly kind: 'rules';
  readonly format: RulesFormat;
  /** `rules <id>`: that rule's page instead of the catalogue. @default - the whole catalogue */
  readonly id?: string;
}

export interface FactsCommand {
  readonly kind: 'facts';
  readonly format: FactsFormat;
  /** `--date YYYY-MM-DD`: the day support status is computed at. @default - today */
  readonly date?: string;
}

export interface PoliciesCommand {
  readonly kind: 'policies';
  /** `--mode`: what the bindings do with a failed validation. @default 'deny' */
  readonly mode: PolicyMode;
  /** `--mutating`: also the MutatingAdmissionPolicies for the sure fixes. @default false */
  readonly mutating: boolean;
  /** `--cloud`. @default - the config file's, else none */
  readonly cloud?: Cloud;
  /** `--cluster-facts FILE`: a WindowsClusterFacts object (or its spec), YAML or JSON. @default - none */
  readonly clusterFacts?: string;
  /** `--config FILE`. @default - found from the working directory upward, as lint finds it */
  readonly config?: string;
  /** `--no-config`. @default false */
  readonly noConfig: boolean;
  /** `--kubernetes-version`. @default - the config file's, else the newest */
  readonly kubernetesVersion?: string;
}

export const DOCTOR_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type DoctorFormat = (typeof DOCTOR_FORMATS)[number];

const DOCTOR_FAIL_ON = ['error', 'warning', 'info'] as const;

export interface DoctorCommand {
  readonly kind: 'doctor';
  /** `--kubeconfig FILE`. @default - $KUBECONFIG, ~/.kube/config, else in-cluster */
  readonly kubeconfig?: string;
  /** `--context NAME`. @default - the kubeconfig's current context */
  readonly context?: string;
  /** `-n/--namespace`: only this namespace's pods. @default - every namespace (-A) */
  readonly namespace?: string;
  readonly format: DoctorFormat;
  /** `--fail-on`. @default 'error' */
  readonly failOn: Severity;
  /** `--timeout SECONDS`, in milliseconds: the whole run. @default 60000 */
  readonly timeoutMs: number;
  /** `--print-rbac`: print the ClusterRole doctor needs, read nothing. @default false */
  readonly printRbac: boolean;
  /**
   * `--upgrade-to RELEASE`: judge every workload as if the Windows nodes ran this release.
   * @default - the releases the nodes run
   */
  readonly upgradeTo?: WindowsRelease;
  /**
   * `--kubernetes-version MINOR`: judge by this Kubernetes minor (`1.37`).
   * @default - the oldest kubelet of the Windows nodes
   */
  readonly kubernetesVersion?: string;
  /** `--facts`: print the WindowsClusterFacts object of the nodes and RuntimeClasses, judge nothing. @default false */
  readonly facts: boolean;
}

export interface HelpCommand {
  readonly kind: 'help';
  /** The command whose help to print; the overview when absent. */
  readonly topic?: CommandName;
}

export interface VersionCommand {
  readonly kind: 'version';
}

export type Command =
  | LintCommand
  | FixCommand
  | RulesCommand
  | FactsCommand
  | PoliciesCommand
  | DoctorCommand
  | HelpCommand
  | VersionCommand;

/** Bad command line: printed as `k8s-windows: <message>` with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  /** The command whose help explains the mistake, if any. */
  public readonly topic?: CommandName;

  constructor(problems: readonly string[], topic?: CommandName) {
    super(problems.join('\n'));
    this.name = 'UsageError';
    this.topic = topic;
  }
}

interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
}

const GLOBAL_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies Record<string, OptionSpec>;

/** The config file and exit policy options of `lint` and `fix`. */
const POLICY_OPTIONS = {
  config: { type: 'string', short: 'c' },
  'no-config': { type: 'boolean' },
  'fail-on': { type: 'string' },
  'max-warnings': { type: 'string' },
  'resolve-images': { type: 'boolean' },
  offline: { type: 'boolean' },
  'registry-mirror': { type: 'string', multiple: true },
  'image-cache': { type: 'string' },
  'insecure-registry': { type: 'string', multiple: true },
  'no-mirror-fallback': { type: 'boolean' },
  'resolve-timeout': { type: 'string' },
  'max-input-size': { type: 'string' },
} as const satisfies Record<string, OptionSpec>;

/** Rendering of chart and kustomization directories, for `lint` and `fix`. `-f` stays `--format`. */
const RENDER_OPTIONS = {
  'no-render': { type: 'boolean' },
  values: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  'release-name': { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'allow-remote-resources': { type: 'boolean' },
  'render-timeout': { type: 'string' },
} as const satisfies Record<string, OptionSpec>;

const LINT_OPTIONS = {
  ...POLICY_OPTIONS,
  ...RENDER_OPTIONS,
  format: { type: 'string', short: 'f' },
  disable: { type: 'string', multiple: true },
  severity: { type: 'string', multiple: true },
  'windows-release': { type: 'string' },
  'kubernetes-version': { type: 'string' },
  cloud: { type: 'string' },
  date: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  'allow-empty': { type: 'boolean' },
  'stdin-filename': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

const FIX_OPTIONS = {
  ...POLICY_OPTIONS,
  ...RENDER_OPTIONS,
  write: { type: 'boolean', short: 'w' },
  diff: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  check: { type: 'boolean' },
  format: { type: 'string', short: 'f' },
  report: { type: 'string' },
  'report-file': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  toleration: { type: 'string', multiple: true },
  cloud: { type: 'string' },
  date: { type: 'string' },
  'windows-release': { type: 'string' },
  'runtime-class': { type: 'string' },
  'pin-linux': { type: 'boolean' },
  krm: { type: 'boolean' },
  'allow-empty': { type: 'boolean' },
  'stdin-filename': { type: 'string' },
  disable: { type: 'string', multiple: true },
  severity: { type: 'string', multiple: true },
  'kubernetes-version': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

const FACTS_OPTIONS = {
  format: { type: 'string', short: 'f' },
  date: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

const POLICIES_OPTIONS = {
  mode: { type: 'string' },
  mutating: { type: 'boolean' },
  cloud: { type: 'string' },
  'cluster-facts': { type: 'string' },
  config: { type: 'string', short: 'c' },
  'no-config': { type: 'boolean' },
  'kubernetes-version': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

const DOCTOR_OPTIONS = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A' },
  format: { type: 'string', short: 'f' },
  'fail-on': { type: 'string' },
  timeout: { type: 'string' },
  'print-rbac': { type: 'boolean' },
  'upgrade-to': { type: 'string' },
  'kubernetes-version': { type: 'string' },
  facts: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

const RULES_OPTIONS = {
  format: { type: 'string', short: 'f' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

/**
 * Parses `argv` (without the node and script entries).
 * @param ruleIds every known rule id, for checking `--disable` and `--severity`
 */
export function parseCommand(argv: readonly string[], ruleIds: readonly string[]): Command {
  const first = argv[0];
  if (first === undefined) throw new UsageError(['no command given.']);
  if (first === 'help') {
    const topic = argv[1];
    if (topic === undefined) return { kind: 'help' };
    if (isCommandName(topic)) return { kind: 'help', topic };
    throw new UsageError([unknownCommand(topic)]);
  }
  if (first.startsWith('-') && first !== STDIN_ARG) {
    const { values, positionals } = parseStrict(argv, GLOBAL_OPTIONS);
    if (values.help) return { kind: 'help' };
    if (values.version) return { kind: 'version' };
    throw new UsageError([`unexpected argument '${positionals[0] ?? ''}'.`]);
  }
  const rest = argv.slice(1);
  switch (first) {
    case 'lint':
      return parseLint(rest, ruleIds);
    case 'fix':
      return parseFix(rest, ruleIds);
    case 'rules':
      return parseRules(rest, ruleIds);
    case 'facts':
      return parseFacts(rest);
    case 'policies':
      return parsePolicies(rest);
    case 'doctor':
      return parseDoctor(rest);
    default:
      throw new UsageError([unknownCommand(first)]);
  }
}

function parseLint(argv: readonly string[], ruleIds: readonly string[]): LintCommand | HelpCommand {
  const { values, positionals, order } = parseStrict(argv, LINT_OPTIONS, 'lint');
  if (values.help) return { kind: 'help', topic: 'lint' };
  const problems: string[] = [];

  const format = values.format ?? 'text';
  if (!isOneOf(format, LINT_FORMATS)) problems.push(badChoice('--format', format, LINT_FORMATS));

  const rules = parseRuleSettings(order, ruleIds, problems);

  let windowsRelease: WindowsRelease | undefined;
  const release = values['windows-release'];
  if (release !== undefined) {
    const parsed = parseWindowsRelease(release);
    if (parsed.ok) windowsRelease = parsed.release;
    else problems.push(`--windows-release: ${parsed.message} ${parsed.fix}`);
  }

  const kubernetesVersion = values['kubernetes-version'];
  if (kubernetesVersion !== undefined && parseKubernetesMinor(kubernetesVersion) === undefined) {
    problems.push(`--kubernetes-version '${kubernetesVersion}' is not a Kubernetes 1.x version; write it as 1.30.`);
  }

  const cloud = values.cloud;
  if (cloud !== undefined && !isOneOf(cloud, CLOUDS)) problems.push(badChoice('--cloud', cloud, CLOUDS));
  const date = parseDate(values.date, problems);

  const stdinFilename = values['stdin-filename'];
  if (stdinFilename !== undefined && stdinFilename.trim() === '') problems.push('--stdin-filename needs a name.');

  if (positionals.length === 0) {
    problems.push(`no input: name files or directories to lint, or '${STDIN_ARG}' to read standard input.`);
  }
  const policy = parsePolicy(values, problems);
  const rendering = parseRendering(values, problems);
  if (problems.length > 0) throw new UsageError(problems, 'lint');

  return {
    kind: 'lint',
    ...policy,
    inputs: positionals,
    format: format as LintFormat,
    rules,
    ...(windowsRelease !== undefined ? { windowsRelease } : {}),
    ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
    ...(cloud !== undefined ? { cloud: cloud as Cloud } : {}),
    ...(date !== undefined ? { date } : {}),
    quiet: values.quiet === true,
    allowEmpty: values['allow-empty'] === true,
    ...(stdinFilename !== undefined ? { stdinFilename } : {}),
    rendering,
  };
}

/** `--no-render`, `--values`, `--set`, `--release-name` and `--namespace`, checked. */
function parseRendering(
  values: {
    'no-render'?: boolean;
    values?: string[];
    set?: string[];
    'release-name'?: string;
    namespace?: string;
    'allow-remote-resources'?: boolean;
    'render-timeout'?: string;
  },
  problems: string[],
): RenderOptions {
  const render = values['no-render'] !== true;
  const files = values.values ?? [];
  const set = values.set ?? [];
  const releaseName = values['release-name'];
  const namespace = values.namespace;
  if (!render) {
    const given = [
      files.length > 0 ? '--values' : '',
      set.length > 0 ? '--set' : '',
      releaseName !== undefined ? '--release-name' : '',
      namespace !== undefined ? '--namespace' : '',
      values['allow-remote-resources'] === true ? '--allow-remote-resources' : '',
      values['render-timeout'] !== undefined ? '--render-timeout' : '',
    ].filter((o) => o !== '');
    if (given.length > 0) {
      problems.push(
        `${given.join(', ')} ${given.length === 1 ? 'applies' : 'apply'} to rendering charts and kustomizations, which --no-render turns off: give one or the other.`,
      );
    }
  }
  for (const s of set) {
    if (!/^[^=]+=/.test(s)) problems.push(`--set '${s}' must be KEY=VALUE (as helm's --set, e.g. image.tag=ltsc2022).`);
  }
  for (const f of files) if (f.trim() === '') problems.push('--values needs a file name.');
  // DNS-1123 label: what Helm accepts as a release name (at most 53 characters).
  if (releaseName !== undefined && !/^[a-z0-9]([-a-z0-9]{0,51}[a-z0-9])?$/.test(releaseName)) {
    problems.push(
      `--release-name '${releaseName}' is not a Helm release name: lower-case letters, digits and '-', at most 53 characters, starting and ending with a letter or digit.`,
    );
  }
  if (namespace !== undefined && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(namespace)) {
    problems.push(
      `--namespace '${namespace}' is not a namespace name: lower-case letters, digits and '-', at most 63 characters.`,
    );
  }
  const timeout = values['render-timeout'];
  const timeoutMs = timeout !== undefined ? parseRenderTimeout(timeout) : undefined;
  if (timeout !== undefined && timeoutMs === undefined) {
    problems.push(
      `--render-timeout '${timeout}' is not a time: write seconds, more than 0 and at most ${MAX_RENDER_TIMEOUT_SECONDS} (300, 300s or 1500ms).`,
    );
  }
  return {
    render,
    values: files,
    set,
    ...(releaseName !== undefined ? { releaseName } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(values['allow-remote-resources'] === true ? { allowRemote: true } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

/** The longest `--render-timeout`: an hour (a render that needs more is not a lint step). */
export const MAX_RENDER_TIMEOUT_SECONDS = 3600;

/** `--render-timeout`: seconds (`300`, `300s`, `1500ms`), more than 0 and at most an hour, in milliseconds. */
export function parseRenderTimeout(value: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s)?\s*$/.exec(value);
  if (!m) return undefined;
  const ms = Number(m[1]) * (m[2] === 'ms' ? 1 : 1000);
  return Number.isFinite(ms) && ms > 0 && ms <= MAX_RENDER_TIMEOUT_SECONDS * 1000 ? Math.ceil(ms) : undefined;
}

/** `--date`, checked: a calendar date written YYYY-MM-DD. */
function parseDate(value: string | undefined, problems: string[]): string | undefined {
  if (value === undefined) return undefined;
  const problem = checkEvaluationDate(value);
  if (problem === undefined) return value;
  problems.push(`--date: ${problem.message} ${problem.fix}`);
  return undefined;
}

function parseFacts(argv: readonly string[]): FactsCommand | HelpCommand {
  const { values, positionals } = parseStrict(argv, FACTS_OPTIONS, 'facts');
  if (values.help) return { kind: 'help', topic: 'facts' };
  const problems: string[] = [];
  const format = values.format ?? 'text';
  if (!isOneOf(format, FACTS_FORMATS)) problems.push(badChoice('--format', format, FACTS_FORMATS));
  const date = parseDate(values.date, problems);
  if (positionals.length > 0) problems.push(`facts takes no arguments; got '${positionals.join(' ')}'.`);
  if (problems.length > 0) throw new UsageError(problems, 'facts');
  return { kind: 'facts', format: format as FactsFormat, ...(date !== undefined ? { date } : {}) };
}

function parsePolicies(argv: readonly string[]): PoliciesCommand | HelpCommand {
  const { values, positionals } = parseStrict(argv, POLICIES_OPTIONS, 'policies');
  if (values.help) return { kind: 'help', topic: 'policies' };
  const problems: string[] = [];
  const mode = values.mode ?? 'deny';
  if (!isOneOf(mode, POLICY_MODES)) problems.push(badChoice('--mode', mode, POLICY_MODES));
  const cloud = values.cloud;
  if (cloud !== undefined && !isOneOf(cloud, CLOUDS)) problems.push(badChoice('--cloud', cloud, CLOUDS));
  const kubernetesVersion = values['kubernetes-version'];
  if (kubernetesVersion !== undefined && parseKubernetesMinor(kubernetesVersion) === undefined) {
    problems.push(`--kubernetes-version '${kubernetesVersion}' is not a Kubernetes 1.x version; write it as 1.30.`);
  }
  const clusterFacts = values['cluster-facts'];
  if (clusterFacts !== undefined && clusterFacts.trim() === '') problems.push('--cluster-facts needs a file name.');
  if (values.config !== undefined && values['no-config'] === true) {
    problems.push('--config names a config file and --no-config reads none: give one or the other.');
  }
  if (positionals.length > 0) {
    problems.push(
      `policies takes no arguments; got '${positionals.join(' ')}' (a facts file is --cluster-facts FILE).`,
    );
  }
  if (problems.length > 0) throw new UsageError(problems, 'policies');
  return {
    kind: 'policies',
    mode: mode as PolicyMode,
    mutating: values.mutating === true,
    ...(cloud !== undefined ? { cloud: cloud as Cloud } : {}),
    ...(clusterFacts !== undefined ? { clusterFacts } : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
    noConfig: values['no-config'] === true,
    ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
  };
}

/** Parses `doctor`'s arguments (after the command name). */
function parseDoctor(argv: readonly string[]): DoctorCommand | HelpCommand {
  const { values, positionals } = parseStrict(argv, DOCTOR_OPTIONS, 'doctor');
  if (values.help) return { kind: 'help', topic: 'doctor' };
  const problems: string[] = [];
  const format = values.format ?? 'text';
  if (!(DOCTOR_FORMATS as readonly string[]).includes(format)) {
    problems.push(`--format '${format}' is not one of ${DOCTOR_FORMATS.join(', ')}.`);
  }
  const failOn = values['fail-on'] ?? 'error';
  if (!(DOCTOR_FAIL_ON as readonly string[]).includes(failOn))
    problems.push(`--fail-on '${failOn}' is not one of ${DOCTOR_FAIL_ON.join(', ')}.`);
  const namespace = values.namespace;
  if (namespace !== undefined && values['all-namespaces'] === true) {
    problems.push('-n/--namespace and -A/--all-namespaces: give one or the other.');
  }
  if (namespace !== undefined && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(namespace)) {
    problems.push(
      `--namespace '${namespace}' is not a namespace name: lower-case letters, digits and '-', at most 63 characters.`,
    );
  }
  const timeout = values.timeout;
  let timeoutMs = DEFAULT_CLUSTER_TIMEOUT_MS;
  if (timeout !== undefined) {
    // The same reading and bound as --render-timeout.
    const ms = parseRenderTimeout(timeout);
    if (ms === undefined) {
      problems.push(
        `--timeout '${timeout}' is not a time: write seconds, more than 0 and at most ${MAX_RENDER_TIMEOUT_SECONDS} (60, 60s or 1500ms).`,
      );
    } else timeoutMs = ms;
  }
  let upgradeTo: WindowsRelease | undefined;
  const release = values['upgrade-to'];
  if (release !== undefined) {
    // Read as lint's --windows-release reads it.
    const parsed = parseWindowsRelease(release);
    if (parsed.ok) upgradeTo = parsed.release;
    else problems.push(`--upgrade-to: ${parsed.message} ${parsed.fix}`);
  }
  const kubernetesVersion = values['kubernetes-version'];
  if (kubernetesVersion !== undefined && parseKubernetesMinor(kubernetesVersion) === undefined) {
    problems.push(`--kubernetes-version '${kubernetesVersion}' is not a Kubernetes 1.x version; write it as 1.30.`);
  }
  const facts = values.facts === true;
  if (facts) {
    const judging = [
      values.format !== undefined ? '--format' : '',
      values['fail-on'] !== undefined ? '--fail-on' : '',
      release !== undefined ? '--upgrade-to' : '',
      kubernetesVersion !== undefined ? '--kubernetes-version' : '',
      namespace !== undefined ? '--namespace' : '',
    ].filter((o) => o !== '');
    if (judging.length > 0) {
      problems.push(
        `--facts prints the cluster's facts as YAML and judges nothing: drop ${judging.join(', ')} (the facts come from every node and RuntimeClass, not one namespace).`,
      );
    }
  }
  if (positionals.length > 0) {
    problems.push(`doctor takes no arguments; got '${positionals.join(' ')}' (it reads the cluster of --context).`);
  }
  if (problems.length > 0) throw new UsageError(problems, 'doctor');
  return {
    kind: 'doctor',
    ...(typeof values.kubeconfig === 'string' ? { kubeconfig: values.kubeconfig } : {}),
    ...(typeof values.context === 'string' ? { context: values.context } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    format: format as DoctorFormat,
    failOn: failOn as Severity,
    timeoutMs,
    printRbac: values['print-rbac'] === true,
    ...(upgradeTo !== undefined ? { upgradeTo } : {}),
    ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
    facts,
  };
}

/** `--config`, `--no-config`, `--fail-on` and `--max-warnings`, checked. */
function parsePolicy(
  values: {
    config?: string;
    'no-config'?: boolean;
    'fail-on'?: string;
    'max-warnings'?: string;
    'resolve-images'?: boolean;
    offline?: boolean;
    'registry-mirror'?: string[];
    'image-cache'?: string;
    'insecure-registry'?: string[];
    'no-mirror-fallback'?: boolean;
    'resolve-timeout'?: string;
    'max-input-size'?: string;
  },
  problems: string[],
): RunPolicy {
  const mirrorIssues: { path: string; message: string; fix?: string }[] = [];
  const registryMirrors = readMirrors(values['registry-mirror'] ?? [], '--registry-mirror', mirrorIssues) ?? {};
  for (const i of mirrorIssues) problems.push(`${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`);
  if (values.offline === true && values['resolve-images'] !== true) {
    problems.push('--offline answers --resolve-images from the cache: give --resolve-images too.');
  }
  const imageCache = values['image-cache'];
  const hostIssues: { path: string; message: string; fix?: string }[] = [];
  const insecureRegistries =
    readRegistryHosts(values['insecure-registry'] ?? [], '--insecure-registry', hostIssues) ?? [];
  for (const i of hostIssues) problems.push(`${i.path}: ${i.message}${i.fix ? ` ${i.fix}` : ''}`);
  const timeout = values['resolve-timeout'];
  const resolveTimeout = timeout !== undefined ? parseResolveTimeout(timeout) : undefined;
  if (timeout !== undefined && resolveTimeout === undefined) {
    problems.push(
      `--resolve-timeout '${timeout}' is not a time: write seconds, more than 0 and at most ${MAX_RESOLVE_TIMEOUT_SECONDS} (30, 30s or 1500ms).`,
    );
  }
  const noConfig = values['no-config'] === true;
  if (noConfig && values.config !== undefined) problems.push('--config and --no-config: give one of them.');
  const failOn = values['fail-on'];
  if (failOn !== undefined && !isOneOf(failOn, FAIL_ON)) problems.push(badChoice('--fail-on', failOn, FAIL_ON));
  const max = values['max-warnings'];
  const maxWarnings = max !== undefined && /^\d+$/.test(max) ? Number(max) : undefined;
  if (max !== undefined && maxWarnings === undefined) {
    problems.push(`--max-warnings '${max}' is not a count: write a whole number, 0 or more.`);
  }
  const maxSize = values['max-input-size'];
  const maxInputSize = maxSize !== undefined ? parseByteSize(maxSize) : undefined;
  if (maxSize !== undefined && maxInputSize === undefined) {
    problems.push(
      `--max-input-size '${maxSize}' is not a size: write bytes, or a number with KiB, MiB or GiB (64MiB).`,
    );
  }
  return {
    noConfig,
    resolveImages: values['resolve-images'] === true,
    ...(maxInputSize !== undefined ? { maxInputSize } : {}),
    offline: values.offline === true,
    registryMirrors,
    ...(imageCache !== undefined ? { imageCache } : {}),
    insecureRegistries,
    noMirrorFallback: values['no-mirror-fallback'] === true,
    ...(resolveTimeout !== undefined ? { resolveTimeout } : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(failOn !== undefined && isOneOf(failOn, FAIL_ON) ? { failOn } : {}),
    ...(maxWarnings !== undefined ? { maxWarnings } : {}),
  };
}

/** `--disable` and `--severity`, applied in command-line order so the last mention of a rule wins. */
function parseRuleSettings(
  order: Parsed<Record<string, OptionSpec>>['order'],
  ruleIds: readonly string[],
  problems: string[],
): Record<string, RuleSetting> {
  const rules: Record<string, RuleSetting> = {};
  for (const { name, value } of order) {
    if (name !== 'disable' && name !== 'severity') continue;
    for (const item of splitList(value)) {
      if (name === 'disable') {
        const problem = checkRuleId(item, ruleIds, '--disable');
        if (problem) problems.push(problem);
        else rules[item] = 'off';
        continue;
      }
      const eq = item.indexOf('=');
      if (eq <= 0) {
        problems.push(`--severity '${item}' must be RULE=LEVEL, LEVEL one of ${RULE_SETTINGS.join(', ')}.`);
        continue;
      }
      const id = item.slice(0, eq).trim();
      const level = item.slice(eq + 1).trim();
      const idProblem = checkRuleId(id, ruleIds, '--severity');
      if (idProblem) problems.push(idProblem);
      if (!isOneOf(level, RULE_SETTINGS)) problems.push(badChoice(`--severity ${id}: level`, level, RULE_SETTINGS));
      else if (!idProblem) rules[id] = level;
    }
  }
  return rules;
}

/** `--windows-release`, checked. */
function parseRelease(value: string | undefined, problems: string[]): WindowsRelease | undefined {
  if (value === undefined) return undefined;
  const parsed = parseWindowsRelease(value);
  if (parsed.ok) return parsed.release;
  problems.push(`--windows-release: ${parsed.message} ${parsed.fix}`);
  return undefined;
}

function parseFix(argv: readonly string[], ruleIds: readonly string[]): FixCommand | HelpCommand {
  const { values, positionals, order } = parseStrict(argv, FIX_OPTIONS, 'fix');
  if (values.help) return { kind: 'help', topic: 'fix' };
  const problems: string[] = [];
  if (values.format !== undefined && values.report !== undefined && values.format !== values.report) {
    problems.push('--format and --report name the same thing (--report is its older name): give one of them.');
  }
  const report = values.format ?? values.report ?? 'text';
  if (!isOneOf(report, FIX_REPORTS)) {
    problems.push(badChoice(values.format !== undefined ? '--format' : '--report', report, FIX_REPORTS));
  }
  const policy = parsePolicy(values, problems);
  const diff = values.diff === true;
  const dryRun = values['dry-run'] === true;
  const check = values.check === true;
  const reportFile = values['report-file'];
  if (reportFile !== undefined && reportFile.trim() === '') problems.push('--report-file needs a file name.');
  const rules = parseRuleSettings(order, ruleIds, problems);
  const windowsRelease = parseRelease(values['windows-release'], problems);
  const kubernetesVersion = values['kubernetes-version'];
  if (kubernetesVersion !== undefined && parseKubernetesMinor(kubernetesVersion) === undefined) {
    problems.push(`--kubernetes-version '${kubernetesVersion}' is not a Kubernetes 1.x version; write it as 1.30.`);
  }
  const tolerations: Taint[] = [];
  for (const t of values.toleration ?? []) {
    const parsed = parseTaint(t);
    if (parsed.ok) tolerations.push(parsed.taint);
    else problems.push(`--toleration: ${parsed.message} ${parsed.fix}`);
  }
  const cloud = values.cloud;
  if (cloud !== undefined && !isOneOf(cloud, CLOUDS)) problems.push(badChoice('--cloud', cloud, CLOUDS));
  const date = parseDate(values.date, problems);
  const runtimeClassName = values['runtime-class'];
  if (runtimeClassName !== undefined && windowsRelease === undefined && values['windows-release'] === undefined) {
    problems.push(
      '--runtime-class is set on unpinned Windows pods in place of the build selector: give --windows-release too.',
    );
  }
  const stdinFilename = values['stdin-filename'];
  if (stdinFilename !== undefined && stdinFilename.trim() === '') problems.push('--stdin-filename needs a name.');
  const krm = values.krm === true;
  const write = values.write === true;
  const inputs = krm && positionals.length === 0 ? [STDIN_ARG] : positionals;
  if (krm && (inputs.length !== 1 || inputs[0] !== STDIN_ARG)) {
    problems.push(`--krm reads one ResourceList from standard input; got '${positionals.join(' ')}'.`);
  }
  if (krm && write) problems.push('--krm writes the ResourceList to standard output; --write does not apply.');
  if (krm && (diff || dryRun))
    problems.push('--krm returns the fixed ResourceList to Kustomize; --diff and --dry-run do not apply.');
  if (diff && write) problems.push('--diff prints what would change and writes nothing: drop --write, or --diff.');
  if (check && write) problems.push('--check writes nothing and fails when a fix is due: drop --write, or --check.');
  if (check && report === 'sarif') {
    problems.push(
      "--check reports the files a fix would change (text, json, junit or github); for SARIF of the findings, run 'k8s-windows lint --format sarif'.",
    );
  }
  if (check && krm) problems.push('--krm returns the fixed ResourceList to Kustomize; --check does not apply.');
  if (write && inputs.includes(STDIN_ARG)) {
    problems.push(
      `--write rewrites files in place; standard input ('${STDIN_ARG}') has no file to write. Drop --write to print the result.`,
    );
  }
  if (inputs.length === 0) {
    problems.push(`no input: name files or directories to fix, or '${STDIN_ARG}' to read standard input.`);
  }
  const rendering = parseRendering(values, problems);
  if (problems.length > 0) throw new UsageError(problems, 'fix');
  return {
    kind: 'fix',
    ...policy,
    inputs,
    write: write && !dryRun,
    diff,
    dryRun,
    check,
    report: report as FixReport,
    ...(reportFile !== undefined ? { reportFile } : {}),
    quiet: values.quiet === true,
    krm,
    rules,
    ...(windowsRelease !== undefined ? { windowsRelease } : {}),
    ...(kubernetesVersion !== undefined ? { kubernetesVersion } : {}),
    tolerations,
    ...(cloud !== undefined ? { cloud: cloud as Cloud } : {}),
    ...(date !== undefined ? { date } : {}),
    ...(runtimeClassName !== undefined ? { runtimeClassName } : {}),
    pinLinux: values['pin-linux'] === true,
    allowEmpty: values['allow-empty'] === true,
    ...(stdinFilename !== undefined ? { stdinFilename } : {}),
    rendering,
  };
}

function parseRules(argv: readonly string[], ruleIds: readonly string[]): RulesCommand | HelpCommand {
  const { values, positionals } = parseStrict(argv, RULES_OPTIONS, 'rules');
  if (values.help) return { kind: 'help', topic: 'rules' };
  const problems: string[] = [];
  const format = values.format ?? 'text';
  if (!isOneOf(format, RULES_FORMATS)) problems.push(badChoice('--format', format, RULES_FORMATS));
  if (positionals.length > 1) problems.push(`'rules' takes one rule id at most; got '${positionals.join(' ')}'.`);
  const id = positionals.length === 1 ? positionals[0] : undefined;
  if (id !== undefined && !ruleIds.includes(id)) problems.push(`unknown rule '${id}'. ${unknownRuleFix(id, ruleIds)}`);
  if (problems.length > 0) throw new UsageError(problems, 'rules');
  return { kind: 'rules', format: format as RulesFormat, ...(id !== undefined ? { id } : {}) };
}

type Values<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : O[K] extends { multiple: true } ? string[] : string;
};

interface Parsed<O extends Record<string, OptionSpec>> {
  readonly values: Values<O>;
  readonly positionals: string[];
  /** Every string option occurrence in command-line order. */
  readonly order: ReadonlyArray<{ readonly name: string; readonly value: string }>;
}

/**
 * `parseArgs` in non-strict mode (so we see every token), then our own checks: unknown options, string options
 * without a value, values given to boolean flags. All problems are reported together.
 */
function parseStrict<O extends Record<string, OptionSpec>>(
  argv: readonly string[],
  options: O,
  command?: CommandName,
): Parsed<O> {
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const order: { name: string; value: string }[] = [];
  const where = command ? ` for '${command}'` : '';
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    const spec: OptionSpec | undefined = Object.prototype.hasOwnProperty.call(options, token.name)
      ? options[token.name]
      : undefined;
    if (spec === undefined) {
      const close = closeMatches(
        token.name,
        Object.keys(options).filter((k) => k.length > 1),
      );
      const hint = close.length > 0 ? ` Did you mean ${close.map((c) => `--${c}`).join(' or ')}?` : '';
      problems.push(`unknown option '${token.rawName}'${where}.${hint}`);
      continue;
    }
    if (spec.type === 'boolean') {
      if (token.value !== undefined) problems.push(`option '${token.rawName}' takes no value.`);
      else values[token.name] = true;
      continue;
    }
    if (
      token.value === undefined ||
      (token.inlineValue !== true && token.value.startsWith('-') && token.value !== STDIN_ARG)
    ) {
      problems.push(`option '${token.rawName}' needs a value.`);
      continue;
    }
    order.push({ name: token.name, value: token.value });
    if (spec.multiple) values[token.name] = [...((values[token.name] as string[] | undefined) ?? []), token.value];
    else values[token.name] = token.value;
  }
  if (problems.length > 0) throw new UsageError(problems, command);
  return { values: values as Values<O>, positionals, order };
}

function checkRuleId(id: string, ruleIds: readonly string[], option: string): string | undefined {
  return ruleIds.includes(id) ? undefined : `${option}: unknown rule '${id}'. ${unknownRuleFix(id, ruleIds)}`;
}

/** Comma lists: `--disable a,b` is `--disable a --disable b`; empty items are dropped. */
function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function isCommandName(value: string): value is CommandName {
  return (COMMANDS as readonly string[]).includes(value);
}

function unknownCommand(name: string): string {
  const close = closeMatches(name, COMMANDS);
  const hint = close.length > 0 ? ` Did you mean '${close[0]}'?` : '';
  return `unknown command '${name}'.${hint} Commands: ${COMMANDS.join(', ')}.`;
}

function isOneOf<T extends string>(value: string, choices: readonly T[]): value is T {
  return (choices as readonly string[]).includes(value);
}

function badChoice(what: string, value: string, choices: readonly string[]): string {
  return `${what} '${value}' is not one of ${choices.join(', ')}.`;
}
