/**
 * What a Compute Engine machine type name says about a Windows node: its CPU architecture and, where the name
 * fixes it, its memory. Windows Server nodes need x86_64 and at least 8 GB (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/).
 * @see https://cloud.google.com/compute/docs/machine-resource
 */

export interface GceMachineType {
  readonly name: string;
  /** Machine family (`n2`, `e2`, `c4a`; `n1` for the family-less `custom-4-8192`). */
  readonly family: string;
  readonly arch: 'amd64' | 'arm64';
  /** vCPUs, when the name states them. */
  readonly vcpus?: number;
  /** GB of memory when known from the name (shared-core types, known family ratios, custom types). */
  readonly memoryGiB?: number;
}

/**
 * Arm (Ampere Altra, Google Axion) machine families: Tau T2A, C4A, N4A.
 * @see https://cloud.google.com/compute/docs/instances/arm-on-compute
 */
const ARM_FAMILIES: ReadonlySet<string> = new Set(['t2a', 'c4a', 'n4a']);

/** GB per vCPU of the predefined types, by family and class (Compute Engine machine family pages). */
const GB_PER_VCPU: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  standard: { n1: 3.75, n2: 4, n2d: 4, e2: 4, n4: 4, c2: 4, c2d: 4, c3: 4, c3d: 4, t2d: 4 },
  highmem: { n1: 6.5, n2: 8, n2d: 8, e2: 8, n4: 8, c2d: 8, c3: 8, c3d: 8 },
  highcpu: { n1: 0.9, n2: 1, n2d: 1, e2: 1, n4: 2, c2d: 2, c3: 2, c3d: 2 },
};

/** Shared-core types, with their memory. */
const SHARED_CORE_GB: Readonly<Record<string, number>> = {
  'e2-micro': 1,
  'e2-small': 2,
  'e2-medium': 4,
  'f1-micro': 0.6,
  'g1-small': 1.7,
};

const PREDEFINED = /^([a-z][a-z0-9]*)-([a-z]+)-(\d+)(?:-[a-z0-9]+)*$/;
const CUSTOM = /^(?:([a-z][a-z0-9]*)-)?custom-(\d+)-(\d+)(?:-ext)?$/;

/** Parses a machine type name; undefined when it follows none of Compute Engine's naming patterns. */
export function parseGceMachineType(name: string): GceMachineType | undefined {
  const text = name.trim();
  const shared = SHARED_CORE_GB[text];
  if (shared !== undefined) {
    return { name, family: text.split('-')[0], arch: 'amd64', memoryGiB: shared };
  }
  const custom = CUSTOM.exec(text);
  if (custom) {
    const family = custom[1] ?? 'n1';
    return {
      name,
      family,
      arch: archOf(family),
      vcpus: Number(custom[2]),
      memoryGiB: Number(custom[3]) / 1024,
    };
  }
  const predefined = PREDEFINED.exec(text);
  if (!predefined) return undefined;
  const [, family, machineClass, vcpuText] = predefined;
  const vcpus = Number(vcpuText);
  const ratio = GB_PER_VCPU[machineClass]?.[family];
  return {
    name,
    family,
    arch: archOf(family),
    vcpus,
    ...(ratio !== undefined ? { memoryGiB: Math.round(ratio * vcpus * 100) / 100 } : {}),
  };
}

function archOf(family: string): 'amd64' | 'arm64' {
  return ARM_FAMILIES.has(family) ? 'arm64' : 'amd64';
}
