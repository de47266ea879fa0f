/**
 * `toWindowsPodSpec`: turns any pod spec into one the API server accepts for Windows and that lands on the right
 * nodes. Shared by the cdk8s constructs and the Pulumi components, so both emit the same pod for the same input.
 */
import type { ImageLookups } from './model/image-facts';
import { plainCopy } from './json';
import { checkImageCompatibility, type ImageCompatibility } from './images';
import { IssueCollector, WindowsValidationError, type ValidationIssue, type WindowsWarning } from './errors';
import {
  CONTAINER_LISTS,
  OS_LABEL,
  WINDOWS_BUILD_LABEL,
  type Container,
  type PodSecurityContext,
  type PodSpec,
  type Probe,
  type SecurityContext,
  type Toleration,
} from './kube';
import { parseWindowsRelease, type WindowsIsolation, type WindowsRelease } from './releases';
import { defaultWindowsTarget, schedulingFor, windowsNodeTarget, type WindowsNodeTarget } from './target';
import {
  FORBIDDEN_CONTAINER_SECURITY_FIELDS,
  FORBIDDEN_POD_FIELDS,
  FORBIDDEN_POD_SECURITY_FIELDS,
} from './windows-fields';
import { CONTAINER_ADMINISTRATOR, CONTAINER_USER, HOST_PROCESS_USERS, isHostProcessUser } from './windows-options';
import { checkListEntries } from './pod-spec-lists';
import { runConstructRules } from './construct-rules';
import { checkPodSpecOptions, withoutNullOptions } from './pod-spec-options';

/** How strict the pod's security settings are. */
export type WindowsSecurityProfile = 'baseline' | 'restricted';

/**
 * A soft problem found while converting (`WindowsWarning`, declared beside ValidationIssue in errors.ts so the cloud
 * helpers can name it without importing the converter), under the rule id `validateManifests` reports it with: the
 * caller reports it (cdk8s Annotations, pulumi.log.warn). A warning or advice never makes a construct refuse.
 */
export type { WindowsWarning } from './errors';

export type { WarningSink } from './errors';

export interface ToWindowsPodSpecOptions {
  /**
   * The nodes to run on. Built by a node pool (`pool.nodeTarget`) or `windowsNodeTarget()`.
   * @default - `windowsNodeTarget({ release: options.release ?? '2022', isolation: options.isolation })`
   */
  readonly target?: WindowsNodeTarget;
  /**
   * Windows Server release to pin when no `target` is given. Ignored when `target` is set.
   * @default '2022'
   */
  readonly release?: WindowsNodeTarget['release'];
  /**
   * Isolation when no `target` is given.
   * @default 'process'
   */
  readonly isolation?: WindowsNodeTarget['isolation'];
  /**
   * Pod-level `windowsOptions.runAsUserName`.
   * @default - the image's user; `ContainerUser` under the `restricted` profile; `NT AUTHORITY\Local service` for HostProcess
   */
  readonly runAsUserName?: string;
  /**
   * Name of a `GMSACredentialSpec` to run as; set on the pod (which the gMSA webhook expands for app containers).
   * @default - no gMSA
   */
  readonly gmsaCredentialSpecName?: string;
  /**
   * Run every container as a HostProcess container on the node (sets `hostNetwork: true`).
   * @default false
   */
  readonly hostProcess?: boolean;
  /**
   * `restricted` adds `runAsNonRoot: true` with `runAsUserName: ContainerUser` so the pod meets the `restricted`
   * Pod Security level (Windows pods are exempt from the seccomp, capabilities and privilege-escalation checks).
   * @default 'baseline'
   */
  readonly securityProfile?: WindowsSecurityProfile;
  /**
   * Apply the Windows container defaults: `imagePullPolicy: IfNotPresent`, memory request equal to limit, and a
   * startup probe copied from the liveness or readiness probe with a 5-minute budget.
   * @default true
   */
  readonly containerDefaults?: boolean;
  /**
   * Values a framework filled in for forbidden fields (not the user): dropped silently. Any other value of a
   * forbidden field is an error. `false`, empty lists and empty objects are always dropped.
   * @default - none
   */
  readonly frameworkDefaults?: FrameworkDefaults;
  /**
   * Prefix of every path in errors and warnings: where this pod spec sits in its object.
   * @default 'spec'
   */
  readonly pathPrefix?: string;
  /**
   * Receives soft problems (floating image tags). Without it they are dropped.
   * @default - ignore warnings
   */
  readonly onWarning?: (warning: WindowsWarning) => void;
  /**
   * What the registries said about the images (`--resolve-images`): an image they answered for gets no
   * `image-floating-tag` warning, as in the rule.
   * @default - no registry answers
   */
  readonly images?: ImageLookups;
  /**
   * How the caller's users name these options, in messages: a front door whose options are spelled otherwise (the
   * Pulumi components' `windows.hostProcess`) gives its words.
   * @default - the option names of `toWindowsPodSpec` ('the hostProcess option', 'gmsa')
   * @internal
   */
  readonly optionWords?: OptionWords;
}

/** How a front door names the identity options, in messages. */
export interface OptionWords {
  /** Asking for a HostProcess pod: 'the hostProcess option'. */
  readonly hostProcessOption: string;
  readonly runAsUserNameOption: string;
  readonly gmsaOption: string;
  /** The two options, as a user removes them: 'gmsa', 'hostProcess'. */
  readonly gmsa: string;
  readonly hostProcess: string;
}

const OPTION_WORDS: OptionWords = {
  hostProcessOption: 'the hostProcess option',
  runAsUserNameOption: 'the runAsUserName option',
  gmsaOption: 'the gMSA option',
  gmsa: 'gmsa',
  hostProcess: 'hostProcess',
};

/** Values of forbidden fields that a framework emits on its own (cdk8s-plus's Linux hardening defaults). */
export interface FrameworkDefaults {
  readonly podSecurityContext?: Readonly<Record<string, unknown>>;
  readonly containerSecurityContext?: Readonly<Record<string, unknown>>;
}

/** Startup budget for slow-starting Windows containers: 30 × 10 s: Windows images are large and slow to start (https://kubernetes.io/docs/concepts/windows/intro/). */
export const WINDOWS_STARTUP_PROBE = { periodSeconds: 10, failureThreshold: 30 } as const;
/** Large Windows images should not be pulled on every start (https://kubernetes.io/docs/concepts/windows/intro/). */
export const WINDOWS_IMAGE_PULL_POLICY = 'IfNotPresent';
/** Least-privileged HostProcess account; node agents that need more ask for `NT AUTHORITY\SYSTEM`. */
export const DEFAULT_HOST_PROCESS_USER: (typeof HOST_PROCESS_USERS)[number] = 'NT AUTHORITY\\Local service';

type Json = Record<string, unknown>;

function isInert(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value as object).length === 0;
  return false;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

/**
 * Returns a new pod spec (the input is never mutated) that is valid for Windows: `os.name: windows`, scheduling from
 * the target, Windows identity options, forbidden fields that were only defaults dropped. Throws
 * `WindowsValidationError` listing every forbidden or contradictory field the user set on purpose.
 */
export function toWindowsPodSpec(podSpec: PodSpec, options: ToWindowsPodSpecOptions = {}): PodSpec {
  return convertPodSpec(podSpec, options, true);
}

/**
 * `toWindowsPodSpec` on a pod spec the caller owns and will not use again (freshly rendered JSON): converted in
 * place, without the defensive copy, which is most of the conversion's cost at synth. Fields removed from the pod
 * spec itself are set to `undefined` rather than deleted (a delete puts the object in V8's slow dictionary mode for
 * everything after it): the caller drops undefined keys when it copies the result out.
 * @internal
 */
export function toWindowsPodSpecInPlace(podSpec: PodSpec, options: ToWindowsPodSpecOptions = {}): PodSpec {
  return convertPodSpec(podSpec, options, false);
}

const ignoreWarning = (): void => undefined;

/** How a conversion removes a field of the pod spec: see `toWindowsPodSpecInPlace`. */
type RemoveField = (spec: Json, field: string) => void;
const deleteField: RemoveField = (spec, field) => {
  delete spec[field];
};
const clearField: RemoveField = (spec, field) => {
  spec[field] = undefined;
};

function convertPodSpec(podSpec: PodSpec, given: ToWindowsPodSpecOptions, copy: boolean): PodSpec {
  const options = withoutNullOptions(given);
  checkPodSpecOptions(options, 'toWindowsPodSpec');
  const prefix = options.pathPrefix ?? 'spec';
  const issues = new IssueCollector();
  const warn = options.onWarning ?? ignoreWarning;
  const hostProcess = options.hostProcess ?? false;
  const profile = options.securityProfile ?? 'baseline';
  const containerDefaults = options.containerDefaults ?? true;
  if (typeof podSpec !== 'object' || podSpec === null || Array.isArray(podSpec)) {
    throw new WindowsValidationError(
      [{ path: prefix, message: `The pod spec is ${show(podSpec)}, not an object.`, fix: 'Pass a pod spec object.' }],
      'toWindowsPodSpec',
    );
  }
  const target = resolveTarget(options, issues);
  const spec = (copy ? plainCopy(podSpec) : podSpec) as PodSpec & Json;
  const remove = copy ? deleteField : clearField;
  checkListEntries(spec, prefix, issues);

  if (spec.os?.name !== undefined && spec.os.name !== 'windows') {
    issues.add(
      `${prefix}.os.name`,
      `os.name ${show(spec.os.name)} contradicts a Windows pod.`,
      "Remove it; it is set to 'windows' for you.",
    );
  }
  spec.os = { name: 'windows' };

  if (target) applyScheduling(spec, target, prefix, issues);
  if (
    !hostProcess && // HostProcess pods run on the host: their own refusal of Hyper-V is the caller's
    target?.isolation === 'hyperv' &&
    target.runtimeClassName === undefined &&
    spec.runtimeClassName == null
  ) {
    // Windows picks the isolation from the RuntimeClass handler: without one the pod runs process-isolated, and the
    // engine (which reads the isolation from the RuntimeClass) would judge its images as process-isolated.
    issues.add(
      options.target !== undefined ? 'target.runtimeClassName' : 'isolation',
      'Hyper-V isolation is chosen by a RuntimeClass with the runhcs-wcow-hypervisor handler; without one the pod runs process-isolated.',
      `Name a RuntimeClass whose handler is runhcs-wcow-hypervisor: use the nodeTarget of a WindowsRuntimeClass with isolation 'hyperv', or set ${prefix}.runtimeClassName.`,
    );
  }
  stripPodFields(spec, remove, options.frameworkDefaults);
  const podWindowsOptions = applyIdentity(spec, options, hostProcess, profile, prefix, issues, remove);

  // Indexed loops and paths built only where needed: this runs for every pod a construct renders, mostly before the
  // JIT has optimized it, where `for...of` costs several times more (bench/synth-fresh.bench.ts).
  for (let l = 0; l < CONTAINER_LISTS.length; l++) {
    const list = CONTAINER_LISTS[l];
    const containers = spec[list] as Container[] | undefined;
    if (!containers) continue;
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i];
      if (c.securityContext !== undefined) {
        const path = `${prefix}.${list}[${i}]`;
        stripContainerFields(c, options.frameworkDefaults?.containerSecurityContext);
        checkContainerIdentity(c, path, hostProcess, issues);
      }
      if (containerDefaults && list !== 'ephemeralContainers') applyContainerDefaults(c, list === 'containers');
    }
  }

  if (podWindowsOptions) {
    spec.securityContext = { ...(spec.securityContext ?? {}), windowsOptions: podWindowsOptions };
  }
  if (spec.securityContext && Object.keys(spec.securityContext).length === 0) remove(spec, 'securityContext');

  // What the rule modules judge, judged by them on the pod about to be emitted.
  runConstructRules(spec, prefix, issues, warn, {
    ...(options.images !== undefined ? { images: options.images } : {}),
    // The target's RuntimeClass, not one the pod names on its own (whose handler the construct does not know).
    ...(target?.runtimeClassName !== undefined ? { isolation: target.isolation } : {}),
    ...optionPathsOf(options, prefix),
  });
  issues.throwIfAny('toWindowsPodSpec');
  return spec;
}

/** Where the rules' findings on values the options set are reported: at the option (see `ConstructRulesInput`). */
function optionPathsOf(
  options: ToWindowsPodSpecOptions,
  prefix: string,
): { optionPaths?: Readonly<Record<string, string>> } {
  if (options.runAsUserName === undefined && options.gmsaCredentialSpecName === undefined) return {};
  const at = `${prefix}.securityContext.windowsOptions`;
  return {
    optionPaths: {
      ...(options.runAsUserName !== undefined ? { [`${at}.runAsUserName`]: 'runAsUserName' } : {}),
      ...(options.gmsaCredentialSpecName !== undefined ? { [`${at}.gmsaCredentialSpecName`]: 'gmsa' } : {}),
    },
  };
}

/**
 * Image checks by isolation, release and image: charts repeat images, and the check is pure. Nested maps keyed by
 * the strings themselves, so a lookup builds no key.
 */
const IMAGE_CHECKS = new Map<WindowsIsolation, Map<WindowsRelease, Map<string, ImageCompatibility>>>();
/** Bound on each memo, so a long-lived process converting many pods does not grow without end. */
const IMAGE_CHECKS_MAX = 1024;

/** `checkImageCompatibility`, memoized. */
export function imageCompatibility(
  image: string,
  release: WindowsRelease,
  isolation: WindowsIsolation,
): ImageCompatibility {
  let byRelease = IMAGE_CHECKS.get(isolation);
  if (!byRelease) IMAGE_CHECKS.set(isolation, (byRelease = new Map()));
  let memo = byRelease.get(release);
  if (!memo) byRelease.set(release, (memo = new Map()));
  let compat = memo.get(image);
  if (!compat) {
    if (memo.size >= IMAGE_CHECKS_MAX) memo.clear();
    compat = checkImageCompatibility(image, release, isolation);
    memo.set(image, compat);
  }
  return compat;
}

/** `schedulingFor`, once per target (targets are immutable and shared by the workloads of a pool). */
interface TargetScheduling {
  readonly selector: readonly (readonly [string, string])[];
  /** The nodeSelector of a pod that sets none, copied for each pod. */
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly tolerations: readonly Toleration[];
}
const SCHEDULING = new WeakMap<WindowsNodeTarget, TargetScheduling>();

function schedulingOf(target: WindowsNodeTarget): TargetScheduling {
  let s = SCHEDULING.get(target);
  if (!s) {
    const { nodeSelector, tolerations } = schedulingFor(target);
    s = { selector: Object.entries(nodeSelector), nodeSelector, tolerations };
    SCHEDULING.set(target, s);
  }
  return s;
}

const sameToleration = (a: Toleration, b: Toleration): boolean =>
  a.key === b.key &&
  a.operator === b.operator &&
  a.value === b.value &&
  a.effect === b.effect &&
  a.tolerationSeconds === b.tolerationSeconds;

function resolveTarget(options: ToWindowsPodSpecOptions, issues: IssueCollector): WindowsNodeTarget | undefined {
  if (options.target) return options.target;
  if (options.release !== undefined) {
    const parsed = parseWindowsRelease(options.release);
    if (!parsed.ok) {
      issues.add('release', parsed.message, parsed.fix);
      return undefined;
    }
  }
  if (options.isolation !== undefined && options.isolation !== 'process' && options.isolation !== 'hyperv') {
    issues.add('isolation', `Isolation ${show(options.isolation)} is not known.`, "Use 'process' or 'hyperv'.");
    return undefined;
  }
  return options.isolation === undefined
    ? defaultWindowsTarget(options.release)
    : windowsNodeTarget({ release: options.release ?? defaultWindowsTarget().release, isolation: options.isolation });
}

function applyScheduling(spec: PodSpec, target: WindowsNodeTarget, prefix: string, issues: IssueCollector): void {
  const wanted = schedulingOf(target);
  const given = spec.nodeSelector;
  if (given === undefined || given === null) spec.nodeSelector = { ...wanted.nodeSelector };
  else spec.nodeSelector = mergedSelector(given, wanted, prefix, issues);
  // null is "not given" in the API (a YAML `tolerations:` with no value).
  const tolerations: Toleration[] =
    spec.tolerations === undefined || spec.tolerations === null ? [] : [...spec.tolerations];
  for (let w = 0; w < wanted.tolerations.length; w++) {
    const t = wanted.tolerations[w];
    let present = false;
    for (let i = 0; i < tolerations.length && !present; i++) present = sameToleration(tolerations[i], t);
    if (!present) tolerations.push({ ...t });
  }
  spec.tolerations = tolerations;
  if (target.runtimeClassName !== undefined) {
    if (spec.runtimeClassName !== undefined && spec.runtimeClassName !== target.runtimeClassName) {
      issues.add(
        `${prefix}.runtimeClassName`,
        `runtimeClassName '${spec.runtimeClassName}' contradicts the target's RuntimeClass '${target.runtimeClassName}'.`,
        'Remove it, or build the target from that RuntimeClass.',
      );
    }
    spec.runtimeClassName = target.runtimeClassName;
  }
}

/** The pod's own nodeSelector with the target's labels added; a label it gives a different value is an issue. */
function mergedSelector(
  given: Readonly<Record<string, string>>,
  wanted: TargetScheduling,
  prefix: string,
  issues: IssueCollector,
): Record<string, string> {
  const selector: Record<string, string> = { ...given };
  for (const [key, value] of wanted.selector) {
    if (selector[key] !== undefined && selector[key] !== value) {
      const fix =
        key === OS_LABEL
          ? 'Remove it: Windows pods select kubernetes.io/os=windows.'
          : key === WINDOWS_BUILD_LABEL
            ? `Remove it and choose the release through the target (the target pins ${value}).`
            : `Remove it or change the target's labels.`;
      issues.add(
        `${prefix}.nodeSelector["${key}"]`,
        `nodeSelector ${key}=${selector[key]} contradicts the Windows target's ${value}.`,
        fix,
      );
    }
    selector[key] = value;
  }
  return selector;
}

const FORBIDDEN_POD_FIELD_ENTRIES = Object.entries(FORBIDDEN_POD_FIELDS);
const POD_SECURITY_FIELDS_TO_STRIP: readonly string[] = [...FORBIDDEN_POD_SECURITY_FIELDS, 'sysctls'];

/**
 * Drops the forbidden fields that ask for nothing (`false`, empty lists and objects, what a framework filled in).
 * What is left was set on purpose: windows-forbidden-field refuses it when the rules run on the result.
 */
function stripPodFields(spec: PodSpec & Json, remove: RemoveField, defaults?: FrameworkDefaults): void {
  for (let f = 0; f < FORBIDDEN_POD_FIELD_ENTRIES.length; f++) {
    const [field, forbidden] = FORBIDDEN_POD_FIELD_ENTRIES[f];
    const value = spec[field];
    if (value === undefined) continue;
    const harmless =
      forbidden === 'true' ? value !== true : isInert(value) || (field === 'hostUsers' && value === true);
    if (harmless) remove(spec, field);
  }
  const sc = spec.securityContext as (PodSecurityContext & Json) | undefined;
  if (!sc) return;
  for (const field of POD_SECURITY_FIELDS_TO_STRIP) {
    const value = sc[field];
    if (value === undefined) continue;
    const fromFramework = defaults?.podSecurityContext && sameValue(defaults.podSecurityContext[field], value);
    if (isInert(value) || fromFramework) delete sc[field];
  }
}

/** `stripPodFields` for a container's securityContext. */
function stripContainerFields(c: Container, defaults: Readonly<Record<string, unknown>> | undefined): void {
  const sc = c.securityContext as (SecurityContext & Json) | undefined;
  if (!sc) return;
  for (const field of FORBIDDEN_CONTAINER_SECURITY_FIELDS) {
    const value = sc[field];
    if (value === undefined) continue;
    const fromFramework = defaults !== undefined && sameValue(defaults[field], value);
    if (isInert(value) || fromFramework) delete sc[field];
  }
  if (Object.keys(sc).length === 0) delete c.securityContext;
}

function applyIdentity(
  spec: PodSpec,
  options: ToWindowsPodSpecOptions,
  hostProcess: boolean,
  profile: WindowsSecurityProfile,
  prefix: string,
  issues: IssueCollector,
  remove: RemoveField,
): PodSecurityContext['windowsOptions'] | undefined {
  const given = spec.securityContext?.windowsOptions;
  // The common pod: no identity asked for or written. Only hostNetwork is left to check.
  if (
    given === undefined &&
    !hostProcess &&
    profile === 'baseline' &&
    options.runAsUserName === undefined &&
    options.gmsaCredentialSpecName === undefined
  ) {
    dropHostNetworkFalse(spec, remove);
    return undefined;
  }
  const existing = given ?? {};
  const wo = { ...existing };
  const words = options.optionWords ?? OPTION_WORDS;
  const path = `${prefix}.securityContext.windowsOptions`;

  if (options.runAsUserName !== undefined) {
    if (existing.runAsUserName !== undefined && existing.runAsUserName !== options.runAsUserName) {
      issues.add(
        `${path}.runAsUserName`,
        `windowsOptions.runAsUserName '${existing.runAsUserName}' disagrees with ${words.runAsUserNameOption} '${options.runAsUserName}'.`,
        'Set it in one place.',
      );
    }
    wo.runAsUserName = options.runAsUserName;
  }
  if (options.gmsaCredentialSpecName !== undefined) {
    if (
      existing.gmsaCredentialSpecName !== undefined &&
      existing.gmsaCredentialSpecName !== options.gmsaCredentialSpecName
    ) {
      issues.add(
        `${path}.gmsaCredentialSpecName`,
        `windowsOptions.gmsaCredentialSpecName '${existing.gmsaCredentialSpecName}' disagrees with ${words.gmsaOption} '${options.gmsaCredentialSpecName}'.`,
        'Set it in one place.',
      );
    }
    wo.gmsaCredentialSpecName = options.gmsaCredentialSpecName;
  }

  if (hostProcess) {
    if (existing.hostProcess === false)
      issues.add(`${path}.hostProcess`, 'windowsOptions.hostProcess is false on a HostProcess pod.', 'Remove it.');
    wo.hostProcess = true;
    wo.runAsUserName ??= DEFAULT_HOST_PROCESS_USER;
    if (!isHostProcessUser(wo.runAsUserName)) {
      issues.add(
        'runAsUserName',
        `HostProcess containers cannot run as '${wo.runAsUserName}'.`,
        `Use one of ${HOST_PROCESS_USERS.map((u) => `'${u}'`).join(', ')}.`,
      );
    }
    if (profile === 'restricted') {
      issues.add(
        'securityProfile',
        "A HostProcess pod cannot meet the 'restricted' Pod Security level.",
        "Remove securityProfile: HostProcess pods need a namespace at the 'privileged' level.",
      );
    }
    spec.hostNetwork = true;
    if (wo.gmsaCredentialSpecName !== undefined) {
      issues.add(
        'gmsa',
        'HostProcess containers run as a node account and cannot use gMSA.',
        `Remove ${words.gmsa} or ${words.hostProcess}.`,
      );
    }
  } else {
    dropHostNetworkFalse(spec, remove);
    if (existing.hostProcess === true) {
      issues.add(
        `${path}.hostProcess`,
        'windowsOptions.hostProcess is set but the pod is not declared HostProcess.',
        `Set ${words.hostProcessOption} instead, so hostNetwork and the user are set with it.`,
      );
    }
    if (profile === 'restricted') {
      spec.securityContext = { ...(spec.securityContext ?? {}), runAsNonRoot: true };
      wo.runAsUserName ??= CONTAINER_USER;
      if (String(wo.runAsUserName).toLowerCase() === CONTAINER_ADMINISTRATOR.toLowerCase()) {
        issues.add(
          'runAsUserName',
          `runAsUserName '${CONTAINER_ADMINISTRATOR}' with runAsNonRoot: true is refused by the kubelet.`,
          `Use '${CONTAINER_USER}' or drop the restricted profile.`,
        );
      }
    }
  }
  return Object.keys(wo).length > 0 ? wo : undefined;
}

/**
 * A pod that is not HostProcess: `hostNetwork: false` (a framework default) is dropped; `true`, which the API server
 * admits and the Windows kubelet ignores, stays as written (the windows-host-network rule warns).
 */
function dropHostNetworkFalse(spec: PodSpec, remove: RemoveField): void {
  if (spec.hostNetwork === false) remove(spec as unknown as Json, 'hostNetwork');
}

function checkContainerIdentity(c: Container, path: string, hostProcess: boolean, issues: IssueCollector): void {
  const wo = c.securityContext?.windowsOptions;
  if (!wo) return;
  if (typeof wo.runAsUserName === 'string' && hostProcess && !isHostProcessUser(wo.runAsUserName)) {
    issues.add(
      `${path}.securityContext.windowsOptions.runAsUserName`,
      `HostProcess containers cannot run as '${wo.runAsUserName}'.`,
      `Use one of ${HOST_PROCESS_USERS.join(', ')}.`,
    );
  }
  if (wo.hostProcess !== undefined && wo.hostProcess !== hostProcess) {
    issues.add(
      `${path}.securityContext.windowsOptions.hostProcess`,
      `Container hostProcess: ${wo.hostProcess} disagrees with the pod (all containers are HostProcess or none).`,
      'Remove it; the pod-level setting applies to every container.',
    );
  }
}

function applyContainerDefaults(c: Container, isAppContainer: boolean): void {
  c.imagePullPolicy ??= WINDOWS_IMAGE_PULL_POLICY;
  const limits = c.resources?.limits;
  const requests = c.resources?.requests;
  // Windows enforces memory limits with job objects (no OOM killer, paging instead): keep request == limit.
  if (limits?.memory !== undefined && requests?.memory === undefined) {
    c.resources = { ...c.resources, requests: { ...(requests ?? {}), memory: limits.memory } };
  } else if (requests?.memory !== undefined && limits?.memory === undefined) {
    c.resources = { ...c.resources, limits: { ...(limits ?? {}), memory: requests.memory } };
  }
  if (isAppContainer && c.startupProbe === undefined) {
    const source = c.livenessProbe ?? c.readinessProbe;
    if (source) c.startupProbe = startupProbeFrom(source);
  }
}

/** A startup probe with the same check as `probe` and a Windows-sized budget. */
export function startupProbeFrom(probe: Probe): Probe {
  // Copies, so the rendered YAML holds no aliases between the probes.
  const { exec, httpGet, tcpSocket, grpc, timeoutSeconds } = plainCopy(probe);
  return {
    ...(exec ? { exec } : {}),
    ...(httpGet ? { httpGet } : {}),
    ...(tcpSocket ? { tcpSocket } : {}),
    ...(grpc ? { grpc } : {}),
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    ...WINDOWS_STARTUP_PROBE,
  };
}

export type { ValidationIssue };
