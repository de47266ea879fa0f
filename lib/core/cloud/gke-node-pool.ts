/**
 * Pure checks for GKE Windows node pools, shared by the `WindowsNodePool` component (typed args) and
 * `checkGkeNodePoolInputs` (a raw `gcp:container/nodePool:NodePool`, for the policy pack).
 * @see https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows
 */
import type { ValidationIssue } from '../errors';
import { WINDOWS_RELEASES, releaseInfo, type WindowsRelease } from '../releases';
import { TAINT_EFFECTS, WINDOWS_TAINT, taintLiteral, type Taint } from '../target';
import {
  checkCloudReleaseForKubernetes,
  fromCloudTaintEffect,
  isCloudTaintEffect,
  isKnown,
  isRepellingTaint,
  nodeMemoryWarnings,
  toCloudTaintEffect,
  untaintedPoolIssue,
} from './node-pools';
import { parseGceMachineType } from './gce-machine-type';

/**
 * The Windows node image type GKE offers: LTSC with containerd (SAC and Docker image types are retired).
 * @see https://cloud.google.com/kubernetes-engine/docs/concepts/node-images#windows
 */
export const GKE_WINDOWS_IMAGE_TYPE = 'WINDOWS_LTSC_CONTAINERD';
/** The default machine type: 4 vCPU / 16 GB (general purpose N2; Windows wants ≥ 8 GB, https://kubernetes.io/docs/concepts/configuration/windows-resource-management/). */
export const DEFAULT_GKE_WINDOWS_MACHINE_TYPE = 'n2-standard-4';
/** The GKE spelling of the conventional Windows taint, as a literal for messages. */
const GKE_TAINT_LITERAL = taintLiteral(WINDOWS_TAINT, toCloudTaintEffect(WINDOWS_TAINT.effect));

/** Whether an image type is a Windows one (any spelling GKE has used: `WINDOWS_LTSC`, `windows_sac_containerd`…). */
export function isWindowsImageType(imageType: unknown): boolean {
  return typeof imageType === 'string' && imageType.toUpperCase().startsWith('WINDOWS');
}

/** The release whose GKE osversion this is (`OS_VERSION_LTSC2022` → `'2022'`). */
export function releaseForGkeOsVersion(osversion: string): WindowsRelease | undefined {
  return WINDOWS_RELEASES.find((r) => releaseInfo(r).gkeOsVersion === osversion);
}

/** The osversions GKE offers, from the release table. */
export function offeredOsVersions(): string[] {
  return WINDOWS_RELEASES.flatMap((r) => {
    const v = releaseInfo(r).gkeOsVersion;
    return v === undefined ? [] : [v];
  });
}

/** Checks that GKE offers a release (it has no LTSC2025 osversion). */
export function checkGkeRelease(release: WindowsRelease, path: string): ValidationIssue[] {
  if (releaseInfo(release).gkeOsVersion !== undefined) return [];
  const offered = WINDOWS_RELEASES.filter((r) => releaseInfo(r).gkeOsVersion !== undefined);
  return [
    {
      path,
      message: `GKE does not offer ${releaseInfo(release).displayName} nodes: windowsNodeConfig.osversion has no value for it.`,
      fix: `Use release ${offered.map((r) => `'${r}'`).join(' or ')}.`,
    },
  ];
}

/** Checks a release against the pool's Kubernetes version when it is a plain string. */
export function checkGkeReleaseForKubernetes(
  release: WindowsRelease,
  version: unknown,
  path: string,
): ValidationIssue[] {
  return checkCloudReleaseForKubernetes('gke', release, version, path);
}

/** Checks a machine type for a Windows node: Arm families (T2A, C4A, N4A) are refused. */
export function checkGkeMachineType(machineType: unknown, path: string): ValidationIssue[] {
  if (machineType === undefined) return [];
  if (typeof machineType !== 'string' || machineType.trim() === '') {
    return [
      {
        path,
        message: `Machine type ${JSON.stringify(machineType)} is not a machine type name.`,
        fix: `Write e.g. '${DEFAULT_GKE_WINDOWS_MACHINE_TYPE}'.`,
      },
    ];
  }
  const parsed = parseGceMachineType(machineType);
  if (parsed?.arch !== 'arm64') return [];
  return [
    {
      path,
      message: `Machine type '${machineType}' is in the Arm family ${parsed.family.toUpperCase()}; Windows Server nodes need x86_64.`,
      fix: `Use an x86_64 machine type such as '${DEFAULT_GKE_WINDOWS_MACHINE_TYPE}'.`,
    },
  ];
}

/** The warning for a machine type whose memory is known and below what a Windows node needs. */
export function gkeMachineTypeWarnings(machineType: unknown, path: string): ValidationIssue[] {
  if (typeof machineType !== 'string') return [];
  return nodeMemoryWarnings(
    machineType,
    parseGceMachineType(machineType)?.memoryGiB,
    path,
    DEFAULT_GKE_WINDOWS_MACHINE_TYPE,
  );
}

/**
 * Checks taints written the GKE way (`{ key, value, effect: 'NO_SCHEDULE' }`): a Kubernetes-spelled effect
 * (`NoSchedule`) is refused with the fix. Returns the taints, converted to the Kubernetes spelling, that parsed.
 */
export function checkGkeTaints(taints: unknown, path: string): { taints: Taint[]; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const parsed: Taint[] = [];
  if (!Array.isArray(taints)) return { taints: parsed, issues };
  taints.forEach((raw: unknown, i) => {
    if (typeof raw !== 'object' || raw === null) return;
    const { key, value, effect } = raw as Record<string, unknown>;
    if (!isKnown(effect)) return;
    if (isCloudTaintEffect(effect)) {
      if (typeof key === 'string') {
        parsed.push({ key, ...(typeof value === 'string' ? { value } : {}), effect: fromCloudTaintEffect(effect) });
      }
    } else if ((TAINT_EFFECTS as readonly unknown[]).includes(effect)) {
      const cloud = toCloudTaintEffect(effect as Taint['effect']);
      issues.push({
        path: `${path}[${i}].effect`,
        message: `Taint effect '${String(effect)}' is the Kubernetes spelling; GKE node pools take '${cloud}'.`,
        fix: `Write '${cloud}'.`,
      });
    } else {
      issues.push({
        path: `${path}[${i}].effect`,
        message: `Taint effect ${JSON.stringify(effect)} is not a GKE taint effect.`,
        fix: "Use 'NO_SCHEDULE', 'PREFER_NO_SCHEDULE' or 'NO_EXECUTE'.",
      });
    }
  });
  return { taints: parsed, issues };
}

/**
 * The warning for a Windows pool with no NoSchedule/NoExecute taint of its own (GKE's own taint is unverified): the
 * windows-node-pool-untainted rule reports it.
 */
export function untaintedGkePoolWarnings(taints: readonly Taint[], path: string): ValidationIssue[] {
  if (taints.some(isRepellingTaint)) return [];
  return [untaintedPoolIssue(path, GKE_TAINT_LITERAL)];
}

function nodeConfigOf(props: { readonly nodeConfig?: unknown }): Record<string, unknown> | undefined {
  const nc = props.nodeConfig;
  return typeof nc === 'object' && nc !== null ? (nc as Record<string, unknown>) : undefined;
}

/** The node config of a Windows pool (a `WINDOWS…` image type); `undefined` for others, which the rules leave alone. */
export function windowsNodeConfig(props: { readonly nodeConfig?: unknown }): Record<string, unknown> | undefined {
  const nodeConfig = nodeConfigOf(props);
  return nodeConfig && isWindowsImageType(nodeConfig.imageType) ? nodeConfig : undefined;
}

export function isPlainTaint(t: unknown): boolean {
  return typeof t === 'object' && t !== null && isKnown((t as Record<string, unknown>).effect);
}

export function windowsOsVersionOf(nodeConfig: Record<string, unknown>): unknown {
  const wnc = nodeConfig.windowsNodeConfig;
  return typeof wnc === 'object' && wnc !== null ? (wnc as Record<string, unknown>).osversion : undefined;
}
