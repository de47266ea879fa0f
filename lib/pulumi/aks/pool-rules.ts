/**
 * Cloud-neutral Windows node-pool rules the AKS and GKE checks share: release vs Kubernetes version, deprecated
 * releases, the pool taint, node memory. Pure, with no cloud SDK import, so the GKE module may load it without
 * loading Azure code. (They belong beside the helpers in `../node-pool.ts`; kept here until that file takes them.)
 */
import * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../../core/errors';
import type { WindowsWarning } from '../../core/pod-spec';
import { parseKubernetesMinor, releaseInfo, type WindowsRelease } from '../../core/releases';
import type { Taint } from '../../core/target';

/** Below this a Windows node has little left for pods: Windows Server idles at about 3.5 GB (reference §6). */
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

/** Checks that a release is supported on a Kubernetes minor (not before its GA minor). */
export function checkReleaseMinimumKubernetes(
  release: WindowsRelease,
  version: string,
  minor: number,
  path: string,
): ValidationIssue[] {
  const info = releaseInfo(release);
  if (minor >= info.firstKubernetesMinor) return [];
  return [
    {
      path,
      message: `${info.displayName} nodes need Kubernetes 1.${info.firstKubernetesMinor} or newer; '${version}' is older.`,
      fix: `Use Kubernetes 1.${info.firstKubernetesMinor}+ or an older Windows release.`,
    },
  ];
}

/** Warns when a release is deprecated (Windows Server 2019). */
export function releaseSupportWarnings(release: WindowsRelease, path: string): WindowsWarning[] {
  const info = releaseInfo(release);
  switch (info.support) {
    case 'supported':
      return [];
    case 'deprecated':
      return [
        {
          ruleId: 'windows-release-deprecated',
          path,
          message: `${info.displayName} is deprecated: clouds and upstream Kubernetes are retiring it.`,
          fix: "Move to release '2022' (and rebuild images on an ltsc2022 base).",
        },
      ];
    default: {
      const unknownState: never = info.support;
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

/** Warns when a node size's memory is known and below what a Windows node needs. */
export function nodeMemoryWarnings(
  size: string,
  memoryGiB: number | undefined,
  path: string,
  example: string,
): WindowsWarning[] {
  if (memoryGiB === undefined || memoryGiB >= MIN_WINDOWS_NODE_MEMORY_GIB) return [];
  return [
    {
      ruleId: 'windows-node-memory',
      path,
      message: `'${size}' has ${memoryGiB} GiB of memory; Windows Server uses about 3.5 GB idle, leaving little for pods.`,
      fix: `Use a size with at least ${MIN_WINDOWS_NODE_MEMORY_GIB} GiB (16 GiB for production), e.g. '${example}'.`,
    },
  ];
}

/** Reports soft problems through `pulumi.log.warn`, each with its rule id so users can find and waive it. */
export function logWarnings(warnings: readonly WindowsWarning[], resource?: pulumi.Resource): void {
  for (const w of warnings) {
    void pulumi.log.warn(`[${w.ruleId}] ${w.path}: ${w.message}${w.fix ? ` Fix: ${w.fix}` : ''}`, resource);
  }
}
