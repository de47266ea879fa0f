/**
 * The cdk8s-cli validation plugin: `cdk8s synth` runs `validateManifests` over every manifest it wrote and fails
 * (exit code 2) when an error is found; warnings are listed in the report without failing. Configure it in
 * `cdk8s.yaml`:
 *
 * ```yaml
 * validations:
 *   - package: ./node_modules/k8s-windows/build/cdk8s/plugin.js
 *     version: 0.1.0
 *     class: WindowsValidation
 *     properties:
 *       windowsRelease: '2022'
 *       rules: { image-floating-tag: 'off' }
 * ```
 *
 * cdk8s-cli calls `new WindowsValidation(properties)` and then `validate(context)`. The plugin imports neither
 * cdk8s nor cdk8s-cli: the context's shape is declared below, so loading it costs only the rule engine.
 *
 * @see https://cdk8s.io/docs/latest/cli/synth/#validation-plugins
 */
import { readFileSync } from 'fs';
import { WindowsValidationError } from '../core/errors';
import {
  RULES_BY_ID,
  loadManifestsWithErrors,
  validateManifests,
  type Diagnostic,
  type RuleSetting,
  type Severity,
  type ValidateOptions,
} from '../core/validate';
import { formatPath } from '../core/validate/loader';
import { readSettings } from '../core/validate/settings';
import { isRecord } from '../core/validate/util';
import { loadConfig, mergeSettings } from '../core/config';

// ---------------------------------------------------------------------------------------------------------------
// The parts of cdk8s-cli's plugin contract (cdk8s-cli/lib/plugins/validation.d.ts) this plugin uses.

/** A resource in violation, as cdk8s-cli reports it. */
export interface ValidationViolatingResource {
  /** `metadata.name`: cdk8s-cli looks up the construct path by it. */
  readonly resourceName: string;
  readonly locations: readonly string[];
  readonly manifestPath: string;
}

/** One violation in a cdk8s-cli validation report. */
export interface ValidationViolation {
  readonly ruleName: string;
  readonly recommendation: string;
  readonly fix: string;
  readonly violatingResources: readonly ValidationViolatingResource[];
}

/** cdk8s-cli's report: violations, then one `submit`. */
export interface ValidationReport {
  addViolation(violation: ValidationViolation): void;
  submit(status: 'success' | 'failure', metadata?: { readonly [key: string]: string }): void;
}

/** What cdk8s-cli hands a validation plugin. */
export interface ValidationContext {
  /** Paths of the synthesized manifests. */
  readonly manifests: readonly string[];
  readonly report: ValidationReport;
  readonly logger: { log(message: string): void };
}

// ---------------------------------------------------------------------------------------------------------------

/** The `properties` of the plugin's entry in `cdk8s.yaml`. */
export interface WindowsValidationProperties {
  /**
   * Disable (`off`) or re-level (`error`, `warning`, `info`) rules by id; `k8s-windows rules` lists them.
   * @default {}
   */
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  /**
   * Windows Server release of the cluster's Windows nodes, for image checks of pods that do not pin one
   * (`'2022'`; an unquoted 2022 is read too).
   * @default - unknown: image/host checks need a pinned release
   */
  readonly windowsRelease?: string | number;
  /**
   * Kubernetes version of the cluster (`1.30`), for version-dependent rules.
   * @default - the newest rules
   */
  readonly kubernetesVersion?: string;
  /**
   * The cloud the cluster runs on (`eks`, `aks`, `gke`): re-levels advice that depends on its Windows node defaults
   * (GKE taints Windows nodes, EKS needs the kubernetes.io/os nodeSelector).
   * @default - unknown: such advice stays info
   */
  readonly cloud?: string;
  /**
   * Lowest severity that fails the synth.
   * @default 'error'
   */
  readonly failOn?: Severity;
  /**
   * The k8s-windows config file (`.k8s-windows.yaml`: rules, suppressions, cloud, versions), relative to the
   * directory `cdk8s synth` runs in. These properties win over it, rule by rule.
   * @default - `.k8s-windows.yaml` found from the working directory upward (or `K8S_WINDOWS_CONFIG`); none if absent
   */
  readonly config?: string;
}

const DEFAULT_FAIL_ON: Severity = 'error'; // errors are what the API server or the node rejects (DESIGN: Validation)

/**
 * Checks the properties from `cdk8s.yaml` (untyped YAML) with the engine's settings reader, over the config file,
 * into engine options.
 */
function resolveProperties(raw: unknown): { options: ValidateOptions; failOn: Severity } {
  const configPath = isRecord(raw) && typeof raw.config === 'string' ? raw.config : undefined;
  const rest = isRecord(raw) ? Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'config')) : raw;
  const { settings: own, issues } = readSettings(rest, 'properties', [
    'rules',
    'windowsRelease',
    'kubernetesVersion',
    'cloud',
    'failOn',
    'suppressions',
  ]);
  const config = loadConfig({
    cwd: process.cwd(),
    env: process.env,
    ...(configPath !== undefined ? { path: configPath } : {}),
  });
  const all = [...(config?.issues ?? []), ...issues];
  if (isRecord(raw) && raw.config !== undefined && configPath === undefined) {
    all.push({
      path: 'properties.config',
      message: `${JSON.stringify(raw.config)} is not a file path.`,
      fix: "Write config: '.k8s-windows.yaml' (relative to where cdk8s synth runs).",
    });
  }
  if (all.length > 0) throw new WindowsValidationError(all, 'k8s-windows validation plugin (cdk8s.yaml)');
  const settings = mergeSettings(config?.settings, own);
  return {
    options: {
      rules: settings.rules ?? {},
      // The charts of one cdk8s app deploy together: Linux pods in one chart share nodes with Windows pods in another.
      crossObjectScope: 'set',
      ...(settings.cloud !== undefined ? { cloud: settings.cloud } : {}),
      ...(settings.windowsRelease !== undefined ? { windowsRelease: settings.windowsRelease } : {}),
      ...(settings.kubernetesVersion !== undefined ? { kubernetesVersion: settings.kubernetesVersion } : {}),
      ...(settings.suppressions !== undefined ? { suppressions: settings.suppressions } : {}),
    },
    failOn: settings.failOn ?? DEFAULT_FAIL_ON,
  };
}

/**
 * The longest prefix of `segments` that exists in `obj`: a diagnostic about a field that is absent (a missing
 * `startupProbe`) points at its nearest present parent, so the line printed is the line of what is named.
 */
function presentLength(obj: unknown, segments: readonly (string | number)[]): number {
  let node: unknown = obj;
  let n = 0;
  for (const seg of segments) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, seg)) break;
    node = (node as Record<string | number, unknown>)[seg];
    n++;
  }
  return n;
}

/** `path (line N)`, or `parent (line N: field is absent)` when the field itself is not in the manifest. */
function locationOf(obj: unknown, d: Diagnostic): string {
  const segments = d.location?.segments ?? [];
  const line = d.location?.position ? `line ${d.location.position.line}` : undefined;
  const n = obj === undefined ? segments.length : presentLength(obj, segments);
  if (n === segments.length) return `${d.path === '' ? '(object)' : d.path}${line ? ` (${line})` : ''}`;
  const present = formatPath(segments.slice(0, n));
  const missing = formatPath(segments.slice(n));
  return `${present === '' ? '(object)' : present} (${line ? `${line}: ` : ''}${missing} is absent)`;
}

const RANK: Readonly<Record<Severity, number>> = { error: 2, warning: 1, info: 0 };

/**
 * The k8s-windows validation plugin for `cdk8s synth`. Construct it with the `properties` of its `cdk8s.yaml`
 * entry; a bad property throws a `WindowsValidationError` naming all of them.
 */
export class WindowsValidation {
  private readonly options: ValidateOptions;
  private readonly failOn: Severity;

  constructor(properties: WindowsValidationProperties | Record<string, unknown> = {}) {
    const resolved = resolveProperties(properties);
    this.options = resolved.options;
    this.failOn = resolved.failOn;
  }

  public async validate(context: ValidationContext): Promise<void> {
    const objects: unknown[] = [];
    let failed = false;
    for (const manifest of context.manifests) {
      const { objects: loaded, errors } = loadManifestsWithErrors(readFileSync(manifest, 'utf8'), manifest);
      for (const e of errors) {
        failed = true;
        context.report.addViolation({
          ruleName: 'input-invalid-yaml [error]',
          recommendation: `${e.message} (line ${e.line}, column ${e.column}).`,
          fix: 'Fix the YAML the app writes.',
          violatingResources: [{ resourceName: '', locations: [`line ${e.line}`], manifestPath: manifest }],
        });
      }
      for (const obj of loaded) objects.push(obj);
    }

    const diagnostics = validateManifests(objects, this.options);
    const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
    for (const d of diagnostics) {
      counts[d.severity] += 1;
      if (RANK[d.severity] >= RANK[this.failOn]) failed = true;
      context.report.addViolation(this.toViolation(d, objects));
    }
    context.logger.log(
      `k8s-windows: ${objects.length} objects in ${context.manifests.length} manifests: ` +
        `${counts.error} errors, ${counts.warning} warnings, ${counts.info} notes.`,
    );
    context.report.submit(failed ? 'failure' : 'success', {
      errors: String(counts.error),
      warnings: String(counts.warning),
      info: String(counts.info),
      failOn: this.failOn,
      ...(this.options.windowsRelease ? { windowsRelease: this.options.windowsRelease } : {}),
    });
  }

  private toViolation(d: Diagnostic, objects: readonly unknown[]): ValidationViolation {
    const r = d.resource;
    const name = r.name ?? '';
    const location = locationOf(d.location !== undefined ? objects[d.location.object] : undefined, d);
    const subject = [r.kind, r.namespace ? `${r.namespace}/${name}` : name].filter(Boolean).join(' ');
    const rule = RULES_BY_ID.get(d.ruleId);
    const docs = rule?.docs;
    const fixable = rule?.fixable !== undefined ? 'Fixable: `k8s-windows fix` rewrites it.' : undefined;
    return {
      ruleName: `${d.ruleId} [${d.severity}]`,
      // cdk8s-cli adds the construct path, which it looks up by resourceName in context.metadata.
      recommendation: `${subject}: ${d.message}`,
      fix: [d.fix, fixable, docs ? `See ${docs}` : undefined].filter(Boolean).join(' '),
      violatingResources: [{ resourceName: name, locations: [location], manifestPath: r.source ?? '' }],
    };
  }
}
