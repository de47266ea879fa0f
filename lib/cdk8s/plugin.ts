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
import { existsSync, readFileSync, rmSync } from 'fs';
import { dirname, join } from 'path';
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
import { readSettings, type EngineSettings } from '../core/validate/settings';
import { isRecord } from '../core/model/util';
import { loadConfig, mergeSettings } from '../core/config';
import { isWindowsImage } from '../core/images';
import { releaseForBuild, type WindowsRelease } from '../core/releases';
import { locatePodSpec } from '../core/workloads';
import { frontDoorText } from '../core/rules/front-door';
// Types and a constant only: annotations.ts loads nothing at runtime the plugin does not already load.
import { CONSTRUCT_WARNINGS_FILE, type ConstructWarningsFile, type WindowsConstructWarning } from './annotations';

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
  /**
   * Ask the registries about every image the app names (platforms, Windows builds, user) and judge them by that
   * (the image rules that need it are marked so in `k8s-windows rules`). `offline`, `registryMirrors` and
   * `imageCache` work as in the config file.
   * @default false
   */
  readonly resolveImages?: boolean;
  /** Answer image questions from the cache only. @default false */
  readonly offline?: boolean;
  /** Registry mirrors by host (`docker.io: https://mirror.example`). @default {} */
  readonly registryMirrors?: Readonly<Record<string, string>>;
  /** Where image answers are cached. @default - the platform's cache directory */
  readonly imageCache?: string;
}

const DEFAULT_FAIL_ON: Severity = 'error'; // errors are what the API server or the node rejects (DESIGN: Validation)

/**
 * Checks the properties from `cdk8s.yaml` (untyped YAML) with the engine's settings reader, over the config file,
 * into engine options.
 */
function resolveProperties(raw: unknown): { options: ValidateOptions; failOn: Severity; settings: EngineSettings } {
  const configPath = isRecord(raw) && typeof raw.config === 'string' ? raw.config : undefined;
  const rest = isRecord(raw) ? Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'config')) : raw;
  const { settings: own, issues } = readSettings(rest, 'properties', [
    'rules',
    'windowsRelease',
    'kubernetesVersion',
    'cloud',
    'failOn',
    'suppressions',
    'resolveImages',
    'offline',
    'registryMirrors',
    'imageCache',
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
    settings,
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
 * The pod-template label every cdk8s-plus workload selects its pods by (`kplus.Pod.ADDRESS_LABEL`, the same in
 * cdk8s-plus-28 to 34), unless the user turned selection off (`select: false`): how the plugin, which sees only the
 * manifests, tells what a cdk8s-plus construct wrote from a raw `ApiObject` or an `Include`d file.
 */
const CDK8S_PLUS_ADDRESS_LABEL = 'cdk8s.io/metadata.addr';

/** The k8s-windows construct for each cdk8s-plus workload kind. */
const WINDOWS_CONSTRUCT: Readonly<Record<string, string>> = {
  Deployment: 'WindowsDeployment',
  StatefulSet: 'WindowsStatefulSet',
  DaemonSet: 'WindowsDaemonSet',
  Job: 'WindowsJob',
  CronJob: 'WindowsCronJob',
};

/** The cdk8s-plus majors k8s-windows has an entry for: `k8s-windows/cdk8s` (28) and `k8s-windows/cdk8s-plus-NN`. */
const ENTRY_MAJORS = [28, 29, 30, 31, 32, 33, 34] as const;

/** Who wrote a manifest object, as far as the manifest tells. */
type Author =
  /** A k8s-windows workload construct: a cdk8s-plus workload with `os.name: windows`, which cdk8s-plus never sets. */
  | { readonly kind: 'windows-construct' }
  /** A plain cdk8s-plus workload running a Windows image: the fix is the k8s-windows construct. */
  | { readonly kind: 'plain-kplus'; readonly image: string }
  /** Another cdk8s-plus construct, a raw ApiObject or an included manifest: manifest advice fits. */
  | { readonly kind: 'other'; readonly cdk8sPlus: boolean };

function authorOf(obj: unknown): Author {
  if (!isRecord(obj) || typeof obj.kind !== 'string') return { kind: 'other', cdk8sPlus: false };
  const loc = locatePodSpec(obj);
  if (!loc) return { kind: 'other', cdk8sPlus: false };
  const cdk8sPlus = loc.podMetadata?.labels?.[CDK8S_PLUS_ADDRESS_LABEL] !== undefined;
  if (!cdk8sPlus || WINDOWS_CONSTRUCT[obj.kind] === undefined) return { kind: 'other', cdk8sPlus };
  if (loc.spec.os?.name === 'windows') return { kind: 'windows-construct' };
  const images = [...(loc.spec.initContainers ?? []), ...(loc.spec.containers ?? [])].map((c) => c.image);
  const image = images.find((i): i is string => typeof i === 'string' && isWindowsImage(i) === true);
  return image === undefined ? { kind: 'other', cdk8sPlus } : { kind: 'plain-kplus', image };
}

/**
 * The cdk8s-plus major the app uses: the highest `cdk8s-plus-NN` in the package.json of the directory `cdk8s synth`
 * runs in (what `cdk8s init` wrote), else the highest one that resolves from there.
 */
function installedCdk8sPlusMajor(cwd: string): number | undefined {
  try {
    const pkg = JSON.parse(readFileSync(`${cwd}/package.json`, 'utf8')) as Record<string, unknown>;
    const names = ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((k) =>
      isRecord(pkg[k]) ? Object.keys(pkg[k]) : [],
    );
    const majors = names.map((n) => /^cdk8s-plus-(\d+)$/.exec(n)?.[1]).filter((m): m is string => m !== undefined);
    if (majors.length > 0) return Math.max(...majors.map(Number));
  } catch {
    // No package.json here: look for an installed major instead.
  }
  for (const major of [...ENTRY_MAJORS].reverse()) {
    try {
      require.resolve(`cdk8s-plus-${major}/package.json`, { paths: [cwd] });
      return major;
    } catch {
      // not installed
    }
  }
  return undefined;
}

/** The import of the k8s-windows constructs for a cdk8s-plus major. */
function constructEntry(major: number | undefined): string {
  if (major === undefined || major === 28) return 'k8s-windows/cdk8s';
  const known = (ENTRY_MAJORS as readonly number[]).includes(major);
  return `k8s-windows/cdk8s-plus-${known ? major : ENTRY_MAJORS[ENTRY_MAJORS.length - 1]}`;
}

/**
 * The k8s-windows validation plugin for `cdk8s synth`. Construct it with the `properties` of its `cdk8s.yaml`
 * entry; a bad property throws a `WindowsValidationError` naming all of them.
 */
export class WindowsValidation {
  private readonly options: ValidateOptions;
  private readonly settings: EngineSettings;
  private readonly failOn: Severity;

  constructor(properties: WindowsValidationProperties | Record<string, unknown> = {}) {
    const resolved = resolveProperties(properties);
    this.options = resolved.options;
    this.settings = resolved.settings;
    this.failOn = resolved.failOn;
  }

  public async validate(context: ValidationContext): Promise<void> {
    const objects: unknown[] = [];
    const sources: string[] = []; // the manifest file of each object
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
      for (const obj of loaded) {
        objects.push(obj);
        sources.push(manifest);
      }
    }

    // The resolver (and its HTTP, cache and credential-helper code) loads only when asked for.
    const images =
      this.settings.resolveImages === true
        ? await (await import('../registry')).resolveImageLookups(objects, this.settings)
        : undefined;
    const diagnostics = validateManifests(objects, images !== undefined ? { ...this.options, images } : this.options);
    const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
    const authors = objects.map(authorOf);
    // A plain cdk8s-plus workload on a Windows image gets one answer (use the k8s-windows construct) instead of
    // a finding per manifest field the construct would have set; at the severity of its worst finding.
    const plain = new Map<number, Diagnostic[]>();
    for (const d of diagnostics) {
      const at = d.location?.object;
      if (at !== undefined && authors[at].kind === 'plain-kplus') {
        const list = plain.get(at) ?? [];
        list.push(d);
        plain.set(at, list);
        continue;
      }
      counts[d.severity] += 1;
      if (RANK[d.severity] >= RANK[this.failOn]) failed = true;
      context.report.addViolation(this.toViolation(d, objects, authors));
    }
    // What the constructs warned about and the manifests cannot show (a `privileged: false` left out of them):
    // handed over by the constructs, reported here unless a manifest finding of that rule on that object already is.
    const found = new Set(diagnostics.map((d) => `${d.location?.object ?? -1}\u0000${d.ruleId}`));
    for (const w of constructWarnings(context.manifests)) {
      const at = objectOfConstruct(w, objects);
      if (at !== undefined && found.has(`${at.index}\u0000${w.ruleId}`)) continue;
      counts.warning += 1;
      if (RANK.warning >= RANK[this.failOn]) failed = true;
      context.report.addViolation(
        at === undefined
          ? constructWarningViolation(w, undefined, '')
          : constructWarningViolation(w, objects[at.index], sources[at.index]),
      );
    }
    let entry: string | undefined;
    for (const [at, found] of plain) {
      entry ??= constructEntry(installedCdk8sPlusMajor(process.cwd()));
      const severity = found.reduce<Severity>((s, d) => (RANK[d.severity] > RANK[s] ? d.severity : s), 'info');
      counts[severity] += 1;
      if (RANK[severity] >= RANK[this.failOn]) failed = true;
      context.report.addViolation(useWindowsConstruct(objects[at], authors[at], found, severity, entry));
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

  private toViolation(d: Diagnostic, objects: readonly unknown[], authors: readonly Author[]): ValidationViolation {
    const r = d.resource;
    const name = r.name ?? '';
    const obj = d.location !== undefined ? objects[d.location.object] : undefined;
    const author = d.location !== undefined ? authors[d.location.object] : undefined;
    const location = locationOf(obj, d);
    const subject = [r.kind, r.namespace ? `${r.namespace}/${name}` : name].filter(Boolean).join(' ');
    const rule = RULES_BY_ID.get(d.ruleId);
    const docs = rule?.docs;
    // What a k8s-windows construct wrote is fixed in its props: the construct's words for the fix, when the rule
    // has them.
    const ownFix =
      author?.kind === 'windows-construct'
        ? frontDoorText(
            d.ruleId,
            'cdk8s',
            {
              path: d.path,
              value: valueAtSegments(obj, d.location?.segments ?? []),
              release: releaseOfPod(obj),
              ...(d.fix !== undefined ? { fix: d.fix } : {}),
            },
            d.messageId,
          )?.fix
        : undefined;
    // `k8s-windows fix` rewrites manifests: right for an included file, useless for what a construct writes (the
    // next synth writes it again).
    const fromConstruct = author?.kind === 'windows-construct' || (author?.kind === 'other' && author.cdk8sPlus);
    const fixable =
      rule?.fixable !== undefined && !fromConstruct ? 'Fixable: `k8s-windows fix` rewrites it.' : undefined;
    return {
      ruleName: `${d.ruleId} [${d.severity}]`,
      // cdk8s-cli adds the construct path, which it looks up by resourceName in context.metadata.
      recommendation: `${subject}: ${d.message}`,
      fix: [ownFix ?? d.fix, fixable, docs ? `See ${docs}` : undefined].filter(Boolean).join(' '),
      violatingResources: [{ resourceName: name, locations: [location], manifestPath: r.source ?? '' }],
    };
  }
}

/** A construct warning, with the construct paths of the manifest objects from cdk8s's `construct-metadata.json`. */
interface HandedOverWarning extends WindowsConstructWarning {
  /** metadata.name → construct path, for the objects of the warning's output directory. */
  readonly objectPaths: ReadonlyMap<string, string>;
}

/**
 * The warnings the constructs handed over in the output directories of `manifests` (then removed, so the output
 * directory holds only what cdk8s writes), each with the construct paths cdk8s recorded for that directory.
 */
function constructWarnings(manifests: readonly string[]): HandedOverWarning[] {
  const out: HandedOverWarning[] = [];
  for (const dir of new Set(manifests.map((m) => dirname(m)))) {
    const file = join(dir, CONSTRUCT_WARNINGS_FILE);
    if (!existsSync(file)) continue;
    let handed: Partial<ConstructWarningsFile> = {};
    try {
      handed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConstructWarningsFile>;
      rmSync(file, { force: true });
    } catch {
      continue; // unreadable: the constructs' warnings were printed by no one; nothing better to do here
    }
    const objectPaths = new Map<string, string>();
    try {
      const metadata = JSON.parse(readFileSync(join(dir, 'construct-metadata.json'), 'utf8')) as {
        resources?: Record<string, { path?: unknown }>;
      };
      for (const [name, r] of Object.entries(metadata.resources ?? {})) {
        if (typeof r.path === 'string') objectPaths.set(name, r.path);
      }
    } catch {
      // No construct metadata: the warning is reported by its construct path alone.
    }
    for (const w of Array.isArray(handed.warnings) ? handed.warnings : []) {
      if (typeof w?.ruleId === 'string' && typeof w.message === 'string' && typeof w.constructPath === 'string') {
        out.push({ ruleId: w.ruleId, message: w.message, constructPath: w.constructPath, objectPaths });
      }
    }
  }
  return out;
}

/**
 * The manifest object the warning's construct wrote: the first object (by metadata.name, via cdk8s's construct
 * paths) at the construct's path or below it, preferring one that holds a pod spec (a workload's ApiObject).
 */
function objectOfConstruct(w: HandedOverWarning, objects: readonly unknown[]): { index: number } | undefined {
  const under = (path: string): boolean => path === w.constructPath || path.startsWith(`${w.constructPath}/`);
  const candidates: number[] = [];
  objects.forEach((obj, index) => {
    const name = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata.name : undefined;
    const path = typeof name === 'string' ? w.objectPaths.get(name) : undefined;
    if (path !== undefined && under(path)) candidates.push(index);
  });
  const index = candidates.find((i) => locatePodSpec(objects[i]) !== undefined) ?? candidates[0];
  return index === undefined ? undefined : { index };
}

/** A construct's warning as a report violation: its rule, its words (fix included), and the object it is about. */
function constructWarningViolation(
  w: WindowsConstructWarning,
  obj: unknown,
  manifestPath: string,
): ValidationViolation {
  // `[rule-id] path: message Fix: fix`, as WindowsAnnotations wrote it.
  const text = w.message.replace(/^\[[^\]]*\] /, '');
  const at = text.indexOf(' Fix: ');
  const message = at < 0 ? text : text.slice(0, at);
  const fix = at < 0 ? '' : text.slice(at + ' Fix: '.length);
  const meta = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  const kind = isRecord(obj) && typeof obj.kind === 'string' ? obj.kind : undefined;
  const subject = kind !== undefined ? `${kind} ${name}` : w.constructPath;
  const docs = RULES_BY_ID.get(w.ruleId)?.docs;
  return {
    ruleName: `${w.ruleId} [warning]`,
    recommendation: `${subject}: ${message}`,
    fix: [fix, docs ? `See ${docs}` : undefined].filter(Boolean).join(' '),
    violatingResources: [
      {
        resourceName: name,
        locations: [`construct ${w.constructPath} (not in the manifest)`],
        manifestPath,
      },
    ],
  };
}

/** The release a pod is pinned to by its build label, which the constructs write for a pinned release. */
function releaseOfPod(obj: unknown): WindowsRelease | undefined {
  const build = locatePodSpec(obj)?.spec.nodeSelector?.['node.kubernetes.io/windows-build'];
  return typeof build === 'string' ? releaseForBuild(build) : undefined;
}

/** The value at `segments` in `obj`. */
function valueAtSegments(obj: unknown, segments: readonly (string | number)[]): unknown {
  let node = obj;
  for (const seg of segments) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[seg];
  }
  return node;
}

/** The one violation of a plain cdk8s-plus workload running a Windows image: use the k8s-windows construct. */
function useWindowsConstruct(
  obj: unknown,
  author: Author,
  found: readonly Diagnostic[],
  severity: Severity,
  entry: string,
): ValidationViolation {
  const r = found[0].resource;
  const name = r.name ?? '';
  const kind = r.kind ?? '';
  const construct = WINDOWS_CONSTRUCT[kind];
  const image = author.kind === 'plain-kplus' ? author.image : '';
  const rules = [...new Set(found.map((d) => d.ruleId))];
  return {
    ruleName: `${USE_WINDOWS_CONSTRUCT} [${severity}]`,
    recommendation:
      `${kind} ${r.namespace ? `${r.namespace}/${name}` : name}: a cdk8s-plus ${kind} runs the Windows image ` +
      `'${image}' without what Windows pods need (${found.length} finding${found.length === 1 ? '' : 's'}: ${rules.join(', ')}).`,
    fix:
      `Use ${construct} from '${entry}' instead of kplus.${kind}: the same props plus \`windows: { release, ... }\`, ` +
      'and it writes os, the Windows nodeSelector and tolerations and drops what Windows refuses. ' +
      `\`import { ${construct} } from '${entry}';\``,
    violatingResources: [{ resourceName: name, locations: [locationOf(obj, found[0])], manifestPath: r.source ?? '' }],
  };
}

/** The name under which the plugin reports a plain cdk8s-plus workload on a Windows image. */
const USE_WINDOWS_CONSTRUCT = 'use-windows-construct';
