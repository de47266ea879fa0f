/**
 * What the EKS node-group rules share: their ids, the minimum disk, whether a node group is a Windows one (and its
 * release), and a version fix in a node group's words. The judgments are in the rule modules
 * (lib/core/rules/eks-windows-*.ts).
 */
import { cloudReleaseGate, releasesOnKubernetes } from '../cloud-gates';
import { parseKubernetesMinor, type WindowsRelease } from '../releases';
import type { Finding } from '../model/types';
import {
  type EksAmiVariant,
  eksWindowsAmiType,
  looksLikeEksWindowsAmiType,
  parseEksWindowsAmiType,
} from './eks-ami-types';

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
 * A node group whose amiType is (or looks like) Windows, with the release and variant when the amiType is one EKS
 * knows; `undefined` for Linux node groups (and an amiType not known yet), which the EKS rules leave alone.
 */
export function windowsNodeGroup(props: {
  readonly amiType?: unknown;
}): { readonly parsed?: { readonly release: WindowsRelease; readonly variant: EksAmiVariant } } | undefined {
  if (!looksLikeEksWindowsAmiType(props.amiType)) return undefined;
  const parsed = parseEksWindowsAmiType(props.amiType);
  return parsed ? { parsed } : {};
}

/** How to fix a release the version does not run, in a node group's inputs: the version to move, or the amiTypes. */
export function versionFix(
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
