/**
 * What the EKS node-group rules share: the minimum disk, whether a node group is a Windows one (and its
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
