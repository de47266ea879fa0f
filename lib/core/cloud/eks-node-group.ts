/**
 * Checks of a raw `aws:eks/nodeGroup:NodeGroup`'s inputs, for node groups not built with `WindowsNodePool`
 * (the CrossGuard policy pack runs these on every node group). Pure: props in, issues out.
 */
import { evaluationDate, lifecycleSentence, releaseSupport } from '../facts/support';
import { isRecord } from '../json';
import type { ValidationIssue } from '../errors';
import { cloudReleaseGate, releasesOnKubernetes } from '../cloud-gates';
import { DEFAULT_WINDOWS_RELEASE, parseKubernetesMinor, releaseInfo, type WindowsRelease } from '../releases';
import { TAINT_EFFECTS, WINDOWS_TAINT, taintLiteral } from '../target';
import type { Finding, Severity } from '../validate/types';
import { CLOUD_TAINT_EFFECTS, checkCloudReleaseForKubernetes, toCloudTaintEffect } from './node-pools';
import {
  type EksAmiVariant,
  eksWindowsAmiType,
  explainEksWindowsAmiType,
  looksLikeEksWindowsAmiType,
  parseEksWindowsAmiType,
} from './eks-ami-types';
import { checkWindowsInstanceTypes, unverifiedWindowsInstanceTypeWarning } from './eks-instance-types';
import { AUTOSCALER_WINDOWS_OS_TAG } from './eks-tags';

/** Stable ids of the EKS Windows checks. */
export const EKS_RULE_IDS = {
  /** amiType looks like Windows but is not one EKS knows. */
  amiType: 'eks-windows-ami-type',
  /** A taint effect in the Kubernetes spelling (`NoSchedule`) where EKS wants `NO_SCHEDULE`. */
  taintEffect: 'eks-windows-taint-effect',
  /** A Windows node group without the `os=windows` `NO_SCHEDULE` taint. */
  windowsTaint: 'eks-windows-taint',
  /** A Graviton or Mac instance type for a Windows node group. */
  instanceArch: 'eks-windows-instance-arch',
  /** A Windows node group without the Cluster Autoscaler `kubernetes.io/os` node-template tag. */
  autoscalerTags: 'eks-windows-autoscaler-tags',
  /** A root disk smaller than the Windows AMI's snapshot. */
  diskSize: 'eks-windows-disk-size',
  /** A Windows Server 2019 amiType. */
  deprecatedRelease: 'eks-windows-deprecated-release',
  /** A Windows cluster without a Linux node group declared. */
  linuxNodeGroup: 'eks-windows-linux-node-group',
  /** An instance type with less memory than a Windows node needs. */
  instanceMemory: 'eks-windows-instance-memory',
  /** Less system-reserved memory than Windows needs. */
  systemReserved: 'eks-windows-system-reserved',
  /** A release EKS does not run on the node group's Kubernetes version (Windows Server 2025 before 1.35). */
  kubernetesVersion: 'eks-windows-kubernetes-version',
} as const;

/** Windows Server needs 32 GB (30 GiB) of disk (Microsoft system requirements); AWS Windows AMI root snapshots are 30 GiB. */
export const MIN_WINDOWS_DISK_SIZE_GIB = 30;

/** A finding of an EKS node group or cluster check, for the policy pack. */
export type EksNodeGroupIssue = Finding;

/**
 * Validates a raw `aws.eks.NodeGroup`'s inputs when its amiType is (or looks like) Windows: amiType spelling,
 * taint effect spelling, the `os=windows` taint, x86_64 instance types, the Cluster Autoscaler `kubernetes.io/os`
 * tag, disk size. Returns no issues for Linux node groups. Unknown (preview) values are skipped, not flagged.
 */
export function checkEksNodeGroupInputs(
  props: Record<string, unknown>,
  options: { readonly date?: string } = {},
): EksNodeGroupIssue[] {
  const issues: EksNodeGroupIssue[] = [];
  const add = (ruleId: string, severity: Severity, issue: ValidationIssue): void => {
    issues.push({ ...issue, ruleId, severity });
  };
  const amiType = props.amiType;
  if (!looksLikeEksWindowsAmiType(amiType)) return issues;

  const parsed = parseEksWindowsAmiType(amiType);
  const explained = explainEksWindowsAmiType(String(amiType));
  if (explained) add(EKS_RULE_IDS.amiType, 'error', { path: 'amiType', ...explained });
  if (parsed) {
    for (const issue of checkCloudReleaseForKubernetes('eks', parsed.release, props.version, 'version', {
      date: options.date,
      releasePath: 'amiType',
    })) {
      // In a node group's words: its version and amiType (the core speaks of releases).
      const fix = typeof props.version === 'string' ? versionFix(parsed, props.version, 'version') : undefined;
      add(EKS_RULE_IDS.kubernetesVersion, 'error', { ...issue, ...(fix ? { fix } : {}) });
    }
  }
  const support = parsed ? releaseSupport(parsed.release, evaluationDate(options.date)) : undefined;
  if (parsed && support?.state === 'deprecated') {
    add(EKS_RULE_IDS.deprecatedRelease, 'warning', {
      path: 'amiType',
      message: `amiType '${String(amiType)}' runs ${releaseInfo(parsed.release).displayName}, which is deprecated: ${support.reasons.join('; ')}. ${lifecycleSentence(parsed.release, evaluationDate(options.date))}`,
      fix: `Move to '${eksWindowsAmiType(DEFAULT_WINDOWS_RELEASE, parsed.variant)}' (rebuild images for the new build).`,
    });
  }

  const taints = Array.isArray(props.taints) ? (props.taints as unknown[]) : [];
  let hasWindowsTaint = false;
  // An element not yet known (preview) may be the Windows taint: do not call it missing.
  let someUnknown = false;
  taints.forEach((raw, i) => {
    if (typeof raw !== 'object' || raw === null) {
      someUnknown = true;
      return;
    }
    const { key, value, effect } = raw as Record<string, unknown>;
    if (typeof effect === 'string' && !(CLOUD_TAINT_EFFECTS as readonly string[]).includes(effect)) {
      const kubeEffect = TAINT_EFFECTS.find((e) => e.toLowerCase() === effect.toLowerCase());
      add(EKS_RULE_IDS.taintEffect, 'error', {
        path: `taints[${i}].effect`,
        message: `Taint effect '${effect}' is not an EKS taint effect.`,
        fix: kubeEffect
          ? `Write '${toCloudTaintEffect(kubeEffect)}' (EKS spelling of ${kubeEffect}).`
          : `Use one of ${CLOUD_TAINT_EFFECTS.join(', ')}.`,
      });
    }
    if (
      key === WINDOWS_TAINT.key &&
      value === WINDOWS_TAINT.value &&
      effect === toCloudTaintEffect(WINDOWS_TAINT.effect)
    ) {
      hasWindowsTaint = true;
    }
  });
  if (props.taints === undefined || (Array.isArray(props.taints) && !hasWindowsTaint && !someUnknown)) {
    add(EKS_RULE_IDS.windowsTaint, 'warning', {
      path: 'taints',
      message:
        'The Windows node group does not carry the taint os=windows:NO_SCHEDULE, so Linux pods without a kubernetes.io/os selector can land on it.',
      fix: `Add ${taintLiteral(WINDOWS_TAINT, toCloudTaintEffect(WINDOWS_TAINT.effect))} and tolerate it in Windows workloads.`,
    });
  }

  if (Array.isArray(props.instanceTypes)) {
    const typeIssues = checkWindowsInstanceTypes(
      (props.instanceTypes as unknown[]).filter((t) => t !== undefined),
      'instanceTypes',
    );
    for (const issue of typeIssues) add(EKS_RULE_IDS.instanceArch, 'error', issue);
    (props.instanceTypes as unknown[]).forEach((t, i) => {
      const warning = unverifiedWindowsInstanceTypeWarning(t, `instanceTypes[${i}]`);
      if (warning) add(EKS_RULE_IDS.instanceArch, 'warning', warning);
    });
  }

  if (typeof props.diskSize === 'number' && props.diskSize < MIN_WINDOWS_DISK_SIZE_GIB) {
    add(EKS_RULE_IDS.diskSize, 'error', {
      path: 'diskSize',
      message: `diskSize ${props.diskSize} GiB is below the ${MIN_WINDOWS_DISK_SIZE_GIB} GiB Windows Server needs.`,
      fix: 'Use 50 GiB or more (the EKS default for Windows); Windows images are several GB each.',
    });
  }

  const tags = isRecord(props.tags) ? props.tags : undefined;
  if (props.tags === undefined || (tags !== undefined && tags[AUTOSCALER_WINDOWS_OS_TAG] !== 'windows')) {
    const scaling = isRecord(props.scalingConfig) ? props.scalingConfig : {};
    const fromZero = scaling.minSize === 0;
    add(EKS_RULE_IDS.autoscalerTags, fromZero ? 'warning' : 'info', {
      path: `tags["${AUTOSCALER_WINDOWS_OS_TAG}"]`,
      message: `The Windows node group has no tag ${AUTOSCALER_WINDOWS_OS_TAG}=windows, so Cluster Autoscaler treats an empty group as Linux${fromZero ? ' and will not scale it up from zero' : ''}.`,
      fix: `Tag the node group's Auto Scaling group with ${AUTOSCALER_WINDOWS_OS_TAG}=windows (WindowsNodePool does this).`,
    });
  }
  return issues;
}

/** The version of the cluster a node group runs, when the stack declares that cluster. */
export interface InheritedClusterVersion {
  /** The cluster's `name`, which the node group's `clusterName` matches. */
  readonly clusterName: string;
  /** The cluster's `version` input (unknown values are skipped). */
  readonly version: unknown;
}

/**
 * A Windows node group that sets no `version` runs its cluster's Kubernetes version (EKS creates it on the
 * cluster's): checks its release against that version, as `checkEksNodeGroupInputs` does against `version` when
 * it is set. The finding is on `amiType`, the input the user wrote; the fix names the cluster's `version`.
 */
export function checkEksNodeGroupInheritedVersion(
  props: Record<string, unknown>,
  cluster: InheritedClusterVersion,
): EksNodeGroupIssue[] {
  if (props.version !== undefined || typeof cluster.version !== 'string') return [];
  const parsed = parseEksWindowsAmiType(props.amiType);
  if (!parsed) return [];
  const issues = checkCloudReleaseForKubernetes('eks', parsed.release, cluster.version, 'version');
  if (issues.length === 0) return [];
  const fix = versionFix(parsed, cluster.version, "the cluster's version");
  return issues.map((i) => ({
    ruleId: EKS_RULE_IDS.kubernetesVersion,
    severity: 'error' as const,
    path: 'amiType',
    message: `amiType '${String(props.amiType)}' runs ${releaseInfo(parsed.release).displayName}, and the node group sets no version, so it runs the version of cluster '${cluster.clusterName}': ${i.message}`,
    fix: fix ?? i.fix ?? '',
  }));
}

/** How to fix a release the version does not run, in a node group's inputs: the version to move, or the amiTypes. */
function versionFix(
  parsed: { readonly release: WindowsRelease; readonly variant: EksAmiVariant },
  version: string,
  versionInput: string,
): string | undefined {
  const minor = parseKubernetesMinor(version);
  const gate = cloudReleaseGate('eks', parsed.release);
  const fits = minor === undefined ? [] : releasesOnKubernetes('eks', minor);
  const move =
    gate === undefined || minor === undefined
      ? undefined
      : minor < gate.firstMinor
        ? `set ${versionInput} to 1.${gate.firstMinor} or newer`
        : gate.lastMinor !== undefined && minor > gate.lastMinor
          ? `set ${versionInput} to 1.${gate.lastMinor}`
          : undefined;
  const amiTypes = fits.map((r) => `'${eksWindowsAmiType(r, parsed.variant)}'`).join(' or ');
  const fix = [move, amiTypes ? `set amiType ${amiTypes}` : undefined].filter(Boolean).join(', or ');
  return fix ? `${fix.charAt(0).toUpperCase()}${fix.slice(1)}.` : undefined;
}
