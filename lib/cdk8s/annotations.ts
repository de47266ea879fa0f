/**
 * Warnings on constructs, with the rule id in the message so users can find, suppress or escalate them. cdk8s has no
 * `Annotations` API of its own (aws-cdk's lives in aws-cdk-lib), so this one follows aws-cdk's shape: the warning is
 * stored as construct metadata (readable with `WindowsAnnotations.warningsOf`) and printed once as a Node.js
 * process warning, which `cdk8s synth` shows on stderr and `--no-warnings` silences. Under `cdk8s synth` with this
 * library's validation plugin configured, manifest-rule warnings are not printed: they are handed to the plugin
 * (`CONSTRUCT_WARNINGS_FILE` in the synth's output directory), whose report lists each once, from the manifest with
 * its file and line when the manifest shows it, else as the construct said it (a `privileged: false` the construct
 * left out of the manifest).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import type { IConstruct } from 'constructs';
import type * as Yaml from 'yaml';
import type * as Catalogue from '../core/validate/rules';

/** Metadata type under which warnings are stored on a construct's node. */
export const WINDOWS_WARNING_METADATA = 'k8s-windows:warning';
/** `process.emitWarning` type of the printed warnings, for `process.on('warning')` filters. */
export const WINDOWS_WARNING_TYPE = 'K8sWindowsWarning';

/** One warning recorded on a construct. */
export interface WindowsConstructWarning {
  /** Stable rule id (`image-floating-tag`, `wildcard-toleration`...). */
  readonly ruleId: string;
  /** The full message: `[rule-id] path: what is wrong. Fix: what to write instead.` */
  readonly message: string;
  /** The construct path the warning is attached to. */
  readonly constructPath: string;
}

/** The `class` of this library's validation plugin in a `cdk8s.yaml` `validations` entry. */
const PLUGIN_CLASS = 'WindowsValidation';
let manifestRules: ReadonlySet<string> | undefined;

/**
 * Whether `ruleId` is a rule of the catalogue (the plugin reports those from the manifests). The catalogue loads
 * every rule module, so only when asked: under `cdk8s synth` with the plugin, not at import.
 */
function isManifestRule(ruleId: string): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  manifestRules ??= new Set((require('../core/validate/rules') as typeof Catalogue).RULES.map((r) => r.id));
  return manifestRules.has(ruleId);
}

let pluginWillReport: boolean | undefined;

/**
 * Whether this process runs under `cdk8s synth` with this library's validation plugin configured: cdk8s-cli sets
 * `CDK8S_RECORD_CONSTRUCT_METADATA=true` for the app when `cdk8s.yaml` lists validations (cdk8s-cli `synthApp`), and
 * the app runs in the project directory. The plugin then reports every manifest rule with its file and line, so the
 * constructs record those warnings without printing them a second time.
 */
function validationPluginWillReport(): boolean {
  if (pluginWillReport !== undefined) return pluginWillReport;
  pluginWillReport = false;
  if (process.env.CDK8S_RECORD_CONSTRUCT_METADATA !== 'true') return false;
  try {
    // Loaded only here, under `cdk8s synth` with validations, to keep `require('k8s-windows/cdk8s')` cheap.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parse } = require('yaml') as typeof Yaml;
    const config = parse(readFileSync('cdk8s.yaml', 'utf8')) as { validations?: unknown } | null;
    const validations = config?.validations;
    pluginWillReport =
      Array.isArray(validations) && validations.some((v) => (v as { class?: unknown } | null)?.class === PLUGIN_CLASS);
  } catch {
    // No readable cdk8s.yaml here: print as usual.
  }
  return pluginWillReport;
}

/** @internal For tests: forget what was learnt about the validation plugin. */
export function resetValidationPluginDetection(): void {
  pluginWillReport = undefined;
  handedOver.clear();
}

/**
 * The file, in the directory `cdk8s synth` writes manifests to, where the constructs leave the warnings they did not
 * print for the validation plugin to report (the plugin reads it, then removes it). Beside cdk8s's own
 * `construct-metadata.json`, which maps each manifest object to its construct.
 */
export const CONSTRUCT_WARNINGS_FILE = 'k8s-windows-construct-warnings.json';

/** The content of `CONSTRUCT_WARNINGS_FILE`. */
export interface ConstructWarningsFile {
  readonly version: 1;
  readonly warnings: readonly WindowsConstructWarning[];
}

/** The warnings handed to the plugin so far, by output directory (the file is rewritten whole on each). */
const handedOver = new Map<string, WindowsConstructWarning[]>();

/** Hands a warning the constructs did not print to the validation plugin, through the synth's output directory. */
function handOver(warning: WindowsConstructWarning): void {
  // cdk8s-cli runs the app with CDK8S_OUTDIR set (a temporary directory under --stdout), and empties it first.
  const outdir = process.env.CDK8S_OUTDIR ?? 'dist';
  const list = handedOver.get(outdir) ?? [];
  list.push(warning);
  handedOver.set(outdir, list);
  const file: ConstructWarningsFile = { version: 1, warnings: list };
  try {
    mkdirSync(outdir, { recursive: true });
    writeFileSync(join(outdir, CONSTRUCT_WARNINGS_FILE), `${JSON.stringify(file, null, 2)}\n`);
  } catch {
    // The directory cannot be written: print the warning rather than lose it.
    process.emitWarning(`${warning.constructPath}: ${warning.message}`, {
      type: WINDOWS_WARNING_TYPE,
      code: warning.ruleId,
    });
  }
}

export class WindowsAnnotations {
  /** The annotations of a construct. */
  public static of(scope: IConstruct): WindowsAnnotations {
    return new WindowsAnnotations(scope);
  }

  /** Every warning recorded on `scope` and its descendants. */
  public static warningsOf(scope: IConstruct): WindowsConstructWarning[] {
    const out: WindowsConstructWarning[] = [];
    for (const c of scope.node.findAll()) {
      for (const entry of c.node.metadata) {
        if (entry.type !== WINDOWS_WARNING_METADATA) continue;
        const data = entry.data as { ruleId: string; message: string };
        out.push({ ruleId: data.ruleId, message: data.message, constructPath: c.node.path });
      }
    }
    return out;
  }

  private constructor(private readonly scope: IConstruct) {}

  /**
   * Records a warning once per construct (rendering may run several times) and prints it.
   * @param ruleId stable rule id, put in brackets at the head of the message
   * @param message what is wrong and how to fix it
   */
  public addWarning(ruleId: string, message: string): void {
    recordWarning(this.scope, ruleId, message, !(validationPluginWillReport() && isManifestRule(ruleId)));
  }
}

/**
 * Records a warning once per construct and prints it when `print` says so (the validation plugin reports manifest
 * rules itself; a warning only the construct can see, such as one from its registry lookups, is always printed).
 * @internal
 */
export function recordWarning(scope: IConstruct, ruleId: string, message: string, print: boolean): void {
  const text = `[${ruleId}] ${message}`;
  const node = scope.node;
  const seen = node.metadata.some(
    (m) => m.type === WINDOWS_WARNING_METADATA && (m.data as { message: string }).message === text,
  );
  if (seen) return;
  node.addMetadata(WINDOWS_WARNING_METADATA, { ruleId, message: text }, { stackTrace: false });
  if (print) process.emitWarning(`${node.path}: ${text}`, { type: WINDOWS_WARNING_TYPE, code: ruleId });
  // Not printed: the validation plugin reports it (from the manifest when it shows there, else from this hand-over).
  else handOver({ ruleId, message: text, constructPath: node.path });
}
