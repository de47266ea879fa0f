/**
 * EKS managed node group `amiType` values for Windows, mapped to and from releases through the core release
 * table (never re-typed here).
 * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html#AmazonEKS-Type-Nodegroup-amiType
 */
import { EKS_WINDOWS_SSM_PARAMETER } from '../facts/clouds';
import { WINDOWS_RELEASES, releaseInfo, sacRelease, type WindowsRelease } from '../releases';

/** Windows Server Core (smaller, the default) or the full Desktop Experience image. */
export type EksAmiVariant = 'core' | 'full';
export const EKS_AMI_VARIANTS: readonly EksAmiVariant[] = ['core', 'full'];
/** Server Core: smaller image, faster boot; what AWS recommends for nodes. */
export const DEFAULT_EKS_AMI_VARIANT: EksAmiVariant = 'core';

export function isEksAmiVariant(value: unknown): value is EksAmiVariant {
  return typeof value === 'string' && (EKS_AMI_VARIANTS as readonly string[]).includes(value);
}

/** The amiType of a release and variant: `WINDOWS_CORE_2022_x86_64`. */
export function eksWindowsAmiType(release: WindowsRelease, variant: EksAmiVariant = DEFAULT_EKS_AMI_VARIANT): string {
  const types = releaseInfo(release).eksAmiTypes;
  switch (variant) {
    case 'core':
      return types.core;
    case 'full':
      return types.full;
    default: {
      const unknownVariant: never = variant;
      throw new Error(`Unknown EKS AMI variant ${String(unknownVariant)}`);
    }
  }
}

/** Every Windows amiType EKS offers, oldest release first, Core before Full. */
export const EKS_WINDOWS_AMI_TYPES: readonly string[] = WINDOWS_RELEASES.flatMap((r) =>
  EKS_AMI_VARIANTS.map((v) => eksWindowsAmiType(r, v)),
);

/** The release and variant an exact Windows amiType names, or undefined. */
export function parseEksWindowsAmiType(
  amiType: unknown,
): { readonly release: WindowsRelease; readonly variant: EksAmiVariant } | undefined {
  if (typeof amiType !== 'string') return undefined;
  for (const release of WINDOWS_RELEASES) {
    for (const variant of EKS_AMI_VARIANTS) {
      if (eksWindowsAmiType(release, variant) === amiType) return { release, variant };
    }
  }
  return undefined;
}

/** Whether `amiType` is exactly one of the Windows amiTypes. */
export function isEksWindowsAmiType(amiType: unknown): boolean {
  return parseEksWindowsAmiType(amiType) !== undefined;
}

/** Whether `amiType` is meant as Windows (starts with `WINDOWS`, any case), spelled right or not. */
export function looksLikeEksWindowsAmiType(amiType: unknown): boolean {
  return typeof amiType === 'string' && /^windows/i.test(amiType.trim());
}

/**
 * For a Windows-looking amiType that EKS does not know, the amiType the user most likely meant and why theirs is
 * wrong (case, a missing `_x86_64`, a SAC release). Undefined when the value is a known amiType.
 */
export function explainEksWindowsAmiType(
  amiType: string,
): { readonly message: string; readonly fix: string } | undefined {
  if (isEksWindowsAmiType(amiType)) return undefined;
  const m = /^windows[_-]?(core|full)[_-]?([0-9a-z]+)/i.exec(amiType.trim());
  const known = EKS_WINDOWS_AMI_TYPES.join(', ');
  if (m) {
    const variant = m[1].toLowerCase() as EksAmiVariant;
    const releaseToken = m[2];
    const sac = sacRelease(releaseToken);
    if (sac) {
      return {
        message: `amiType '${amiType}' names the end-of-life Semi-Annual Channel release ${sac.name}; EKS has no such AMI.`,
        fix: `Use an LTSC amiType such as '${eksWindowsAmiType('2022', variant)}'.`,
      };
    }
    const release = WINDOWS_RELEASES.find((r) => r === releaseToken);
    if (release) {
      return {
        message: `amiType '${amiType}' is not an EKS amiType (EKS spells them exactly, upper case with '_x86_64').`,
        fix: `Write '${eksWindowsAmiType(release, variant)}'.`,
      };
    }
  }
  return { message: `amiType '${amiType}' is not an EKS Windows amiType.`, fix: `Use one of ${known}.` };
}

/**
 * The public SSM parameter holding the latest EKS-optimized Windows AMI for a release, variant and Kubernetes
 * minor: `/aws/service/ami-windows-latest/Windows_Server-2022-English-Core-EKS_Optimized-1.31/image_id` (what
 * eksctl and terraform-aws-eks read when no AMI is given).
 * @see https://docs.aws.amazon.com/eks/latest/userguide/retrieve-windows-ami-id.html
 */
export function eksWindowsAmiParameterName(release: WindowsRelease, variant: EksAmiVariant, minor: number): string {
  const option = variant === 'core' ? 'Core' : 'Full';
  return EKS_WINDOWS_SSM_PARAMETER.template
    .replace('{release}', release)
    .replace('{variant}', option)
    .replace('{minor}', String(minor));
}
