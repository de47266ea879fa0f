/**
 * What an Azure VM size name says about a Windows node: its CPU architecture and, for the families whose memory
 * follows from the name, its memory. Windows Server nodes need x86_64 and at least 8 GiB (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/).
 * @see https://learn.microsoft.com/azure/virtual-machines/vm-naming-conventions
 */

/** A VM size name taken apart: `Standard_E4-2ads_v5` → family `E`, 4 vCPUs, features `ads`, version 5. */
export interface AzureVmSize {
  readonly name: string;
  /** Upper-case family letters (`D`, `E`, `DC`, `NC`). */
  readonly family: string;
  /** The vCPU count in the name (before any constrained-core suffix: the memory follows it). */
  readonly vcpus: number;
  /** Lower-case additive features (`p` = Arm-based processor, `l` = low memory, `s` = premium storage…). */
  readonly features: string;
  /** The `_vN` version, when the name has one. */
  readonly version?: number;
  readonly arch: 'amd64' | 'arm64';
  /** GiB of memory, when the family's memory per vCPU is known; undefined otherwise. */
  readonly memoryGiB?: number;
}

const SIZE_PATTERN = /^Standard_([A-Z]+)(\d+)(?:-\d+)?([a-z]*)(?:_([A-Za-z0-9]+(?:_[A-Za-z0-9]+)*))?$/;

/**
 * GiB per vCPU by family for the general-purpose and memory-optimised generations v3–v6, whose memory is a fixed
 * multiple of the vCPUs (`D4s_v5` 16 GiB, `D4ls_v5` 8 GiB, `E4s_v5` 32 GiB). Older generations (`D2_v2` 7 GiB)
 * break the pattern and stay unknown.
 * @see https://learn.microsoft.com/azure/virtual-machines/sizes/overview
 */
const GIB_PER_VCPU: Readonly<Record<string, { readonly base: number; readonly lowMemory?: number }>> = {
  D: { base: 4, lowMemory: 2 },
  E: { base: 8 },
};
const RATIO_VERSIONS = new Set([3, 4, 5, 6]);

/** Burstable sizes whose memory does not follow a ratio: listed exactly (Azure B-series pages). */
const EXACT_MEMORY_GIB: Readonly<Record<string, number>> = {
  Standard_B1s: 1,
  Standard_B1ms: 2,
  Standard_B2s: 4,
  Standard_B2ms: 8,
  Standard_B2ts_v2: 1,
  Standard_B2ls_v2: 4,
  Standard_B2s_v2: 8,
  Standard_B2ats_v2: 1,
  Standard_B2als_v2: 4,
  Standard_B2as_v2: 8,
  Standard_F2s_v2: 4,
  Standard_F4s_v2: 8,
};

/** Parses an Azure VM size; undefined when the name does not follow Azure's naming convention. */
export function parseAzureVmSize(name: string): AzureVmSize | undefined {
  const m = SIZE_PATTERN.exec(name.trim());
  if (!m) return undefined;
  const [, family, vcpuText, features, versionText] = m;
  const vcpus = Number(vcpuText);
  const versionMatch = versionText ? /(?:^|_)v(\d+)$/.exec(versionText) : null;
  const version = versionMatch ? Number(versionMatch[1]) : undefined;
  // The `p` feature letter means an Arm-based processor (Dpsv5, Epsv6, B2pts_v2…).
  const arch = features.includes('p') ? 'arm64' : 'amd64';
  return {
    name,
    family,
    vcpus,
    features,
    ...(version !== undefined ? { version } : {}),
    arch,
    ...memoryOf(name, family, vcpus, features, version),
  };
}

function memoryOf(
  name: string,
  family: string,
  vcpus: number,
  features: string,
  version: number | undefined,
): { memoryGiB?: number } {
  const exact = EXACT_MEMORY_GIB[name.trim()];
  if (exact !== undefined) return { memoryGiB: exact };
  const ratio = GIB_PER_VCPU[family];
  if (!ratio || version === undefined || !RATIO_VERSIONS.has(version)) return {};
  const perVcpu = features.includes('l') ? ratio.lowMemory : ratio.base;
  return perVcpu === undefined ? {} : { memoryGiB: perVcpu * vcpus };
}
