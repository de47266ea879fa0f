/**
 * What every cloud's Windows node pool rules share, framework-free: taint effects in the cloud spellings, the
 * release gates by Kubernetes version and date (the gates and dates are data: core/facts), the support, taint and
 * memory judgments the node-pool rules make, and the Kubernetes name syntax the pool inputs use.
 */
import type { ValidationIssue } from '../errors';
import { checkCloudRelease, checkCloudRetirement, cloudReleaseGate, type Cloud } from '../cloud-gates';
import { evaluationDate, lifecycleSentence as lifecycleNote, releaseSupport } from '../facts/support';
import { parseKubernetesMinor, releaseInfo, WINDOWS_RELEASES, type WindowsRelease } from '../releases';
import { WINDOWS_TAINT, type Taint, type TaintEffect } from '../target';

// ---------------------------------------------------------------------------------------------------------------
// Taints
// ---------------------------------------------------------------------------------------------------------------

/** Taint effects as EKS (`aws.eks.NodeGroup.taints[].effect`) and GKE (`nodeConfig.taints[].effect`) spell them. */
export type CloudTaintEffect = 'NO_SCHEDULE' | 'PREFER_NO_SCHEDULE' | 'NO_EXECUTE';
export const CLOUD_TAINT_EFFECTS: readonly CloudTaintEffect[] = ['NO_SCHEDULE', 'PREFER_NO_SCHEDULE', 'NO_EXECUTE'];

/** Converts a Kubernetes taint effect (`NoSchedule`) to the EKS/GKE spelling (`NO_SCHEDULE`). */
export function toCloudTaintEffect(effect: TaintEffect): CloudTaintEffect {
  switch (effect) {
    case 'NoSchedule':
      return 'NO_SCHEDULE';
    case 'PreferNoSchedule':
      return 'PREFER_NO_SCHEDULE';
    case 'NoExecute':
      return 'NO_EXECUTE';
    default: {
      const unknownEffect: never = effect;
      throw new Error(`Unknown taint effect ${String(unknownEffect)}`);
    }
  }
}

/** Converts an EKS/GKE taint effect (`NO_SCHEDULE`) back to the Kubernetes spelling (`NoSchedule`). */
export function fromCloudTaintEffect(effect: CloudTaintEffect): TaintEffect {
  switch (effect) {
    case 'NO_SCHEDULE':
      return 'NoSchedule';
    case 'PREFER_NO_SCHEDULE':
      return 'PreferNoSchedule';
    case 'NO_EXECUTE':
      return 'NoExecute';
    default: {
      const unknownEffect: never = effect;
      throw new Error(`Unknown cloud taint effect ${String(unknownEffect)}`);
    }
  }
}

export function isCloudTaintEffect(value: unknown): value is CloudTaintEffect {
  return typeof value === 'string' && (CLOUD_TAINT_EFFECTS as readonly string[]).includes(value);
}

/** A taint as kubectl and AKS write it: `key=value:Effect`, or `key:Effect` without a value. */
export function taintToString(taint: Taint): string {
  return taint.value === undefined || taint.value === ''
    ? `${taint.key}:${taint.effect}`
    : `${taint.key}=${taint.value}:${taint.effect}`;
}

/** Whether `taints` holds exactly the conventional Windows taint `os=windows:NoSchedule` (https://kubernetes.io/docs/concepts/windows/user-guide/). */
export function hasWindowsTaint(taints: readonly Taint[]): boolean {
  return taints.some(
    (t) => t.key === WINDOWS_TAINT.key && t.value === WINDOWS_TAINT.value && t.effect === WINDOWS_TAINT.effect,
  );
}

/** Below this a Windows node has little left for pods: Windows Server idles at about 3.5 GB (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/). */
export const MIN_WINDOWS_NODE_MEMORY_GIB = 8;

/** Whether a value is known now: not undefined, not an Output, a Promise or an unknown placeholder object. */
export function isKnown(value: unknown): boolean {
  return value !== undefined && value !== null && typeof value !== 'object' && typeof value !== 'function';
}

/**
 * The Kubernetes minor of a version the pool runs, or the issue when it is a string that is not a 1.x version.
 * Anything but a string (an Output, undefined) is not known yet: `{}`.
 */
export function kubernetesMinorOf(version: unknown, path: string): { minor?: number; issues: ValidationIssue[] } {
  if (typeof version !== 'string') return { issues: [] };
  const minor = parseKubernetesMinor(version);
  if (minor !== undefined) return { minor, issues: [] };
  return {
    issues: [
      {
        path,
        message: `Kubernetes version '${version}' is not a Kubernetes 1.x version.`,
        fix: "Write e.g. '1.32' or '1.32.4'.",
      },
    ],
  };
}

/** Where a gate finding goes and the day support is judged at. */
export interface GateOptions {
  /**
   * The day retirements are judged at (`YYYY-MM-DD`).
   * @default - today
   */
  readonly date?: string;
  /**
   * Where a retirement is reported: it is about the release, not the version.
   * @default - the version's path
   */
  readonly releasePath?: string;
}

/**
 * Checks a release against the Kubernetes version a pool on `cloud` runs (see `checkCloudRelease`) and against the
 * cloud's retirements at `options.date`: a retired release is refused whatever the version (known or not); a
 * version that is not a plain string (an Output, undefined) is not known yet and passes the version gates; an
 * unparsable one is refused.
 */
export function checkCloudReleaseForKubernetes(
  cloud: Cloud,
  release: WindowsRelease,
  version: unknown,
  path: string,
  options: GateOptions = {},
): ValidationIssue[] {
  const { minor, issues } = kubernetesMinorOf(version, path);
  // A release the cloud does not offer at all is the release check's to report, not the version's.
  if (cloudReleaseGate(cloud, release) === undefined) return issues;
  const retired = checkCloudRetirement(cloud, release, minor, options.date);
  if (retired) return [...issues, { path: options.releasePath ?? path, ...retired }];
  if (minor === undefined || typeof version !== 'string') return issues;
  const violation = checkCloudRelease(cloud, release, version, options.date);
  return violation ? [{ path, ...violation }] : [];
}

/**
 * The warning for a release deprecated at `date` (today unless given): upstream Kubernetes no longer lists it, or
 * Microsoft's extended support has ended (Windows Server 2019 today). The message gives the dates; the
 * windows-release-deprecated rule reports it.
 */
export function releaseSupportWarnings(release: WindowsRelease, path: string, date?: string): ValidationIssue[] {
  const day = evaluationDate(date);
  const support = releaseSupport(release, day);
  switch (support.state) {
    case 'supported':
      return [];
    case 'deprecated': {
      const info = releaseInfo(release);
      const newer = WINDOWS_RELEASES.filter((r) => r > release && releaseSupport(r, day).state === 'supported');
      const to = newer.length > 0 ? `release ${newer.map((r) => `'${r}'`).join(' or ')}` : 'a supported release';
      return [
        {
          path,
          message: `${info.displayName} is deprecated: ${support.reasons.join('; ')}. ${lifecycleNote(release, day)}`,
          fix: `Move to ${to} (and rebuild images on its ltsc base).`,
        },
      ];
    }
    default: {
      const unknownState: never = support.state;
      throw new Error(`Unknown support state ${String(unknownState)}`);
    }
  }
}

/** Whether a taint keeps pods that do not tolerate it off the node (NoSchedule or NoExecute). */
export function isRepellingTaint(taint: Taint): boolean {
  return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}

/** The issue for a Windows pool with no NoSchedule/NoExecute taint: Linux pods would land on it. */
export function untaintedPoolIssue(path: string, example: string): ValidationIssue {
  return {
    path,
    message:
      'A Windows pool without a NoSchedule or NoExecute taint takes Linux pods that do not select kubernetes.io/os; they then fail to pull their images.',
    fix: `Add the taint ${example} (workloads get the toleration from the pool's nodeTarget).`,
  };
}

/** The warning for a node size whose memory is known and below what a Windows node needs (windows-node-memory). */
export function nodeMemoryWarnings(
  size: string,
  memoryGiB: number | undefined,
  path: string,
  example: string,
): ValidationIssue[] {
  if (memoryGiB === undefined || memoryGiB >= MIN_WINDOWS_NODE_MEMORY_GIB) return [];
  return [
    {
      path,
      message: `'${size}' has ${memoryGiB} GiB of memory; Windows Server uses about 3.5 GB idle, leaving little for pods.`,
      fix: `Use a size with at least ${MIN_WINDOWS_NODE_MEMORY_GIB} GiB (16 GiB for production), e.g. '${example}'.`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Syntax helpers
// ---------------------------------------------------------------------------------------------------------------

const NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A Kubernetes qualified name (label or taint key): `[prefix/]name`, prefix a DNS subdomain ≤ 253, name ≤ 63. */
export function isQualifiedName(value: string): boolean {
  const parts = value.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1];
  if (name.length === 0 || name.length > 63 || !NAME_PART.test(name)) return false;
  if (parts.length === 2) {
    const prefix = parts[0];
    return prefix.length > 0 && prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix);
  }
  return true;
}

/** A Kubernetes label value: empty, or ≤ 63 characters of `[-A-Za-z0-9_.]` starting and ending alphanumeric. */
export function isLabelValue(value: string): boolean {
  return value === '' || (value.length <= 63 && NAME_PART.test(value));
}
