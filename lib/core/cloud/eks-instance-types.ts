/**
 * EC2 instance type checks for Windows nodes: Windows AMIs are x86_64 only, so Graviton (arm64) and Mac families
 * are refused; small sizes are flagged because Windows Server itself takes about 3.5 GB (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/).
 * @see https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html
 */
import { EKS_NO_WINDOWS_FAMILIES, type NoWindowsFamily } from '../facts/clouds';
import type { ValidationIssue } from '../errors';

/** `family.size`, e.g. `m5.xlarge`, `u-6tb1.112xlarge`. */
const INSTANCE_TYPE = /^([a-z][a-z0-9-]*)\.([a-z0-9-]+)$/;

/** The family of an instance type (`m6g` of `m6g.large`), or undefined when the value is not `family.size`. */
export function instanceFamily(instanceType: string): string | undefined {
  return INSTANCE_TYPE.exec(instanceType)?.[1];
}

/**
 * Whether an instance type runs on AWS Graviton (arm64): `a1`, and every family with a `g` right after its
 * generation number (`m6g`, `c7gn`, `t4g`, `x2gd`, `im4gn`, `is4gen`, `g5g`, `hpc7g`, `r8g`).
 * @see https://aws.amazon.com/ec2/graviton/
 */
export function isArmInstanceType(instanceType: string): boolean {
  const family = instanceFamily(instanceType);
  if (family === undefined) return false;
  return family === 'a1' || /^[a-z]+\d+g[a-z]*$/.test(family);
}

/** Whether an instance type is an EC2 Mac (macOS only). */
export function isMacInstanceType(instanceType: string): boolean {
  return instanceFamily(instanceType)?.startsWith('mac') ?? false;
}

/** 4 vCPU / 16 GiB: Windows takes ~3.5 GB at idle, 16 GB is the production floor (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/). */
export const DEFAULT_WINDOWS_INSTANCE_TYPE = 'm5.xlarge';

/** Sizes known to have less than the 8 GiB a Windows node needs (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/): burstable small sizes, `c*.large`. */
export function isBelowWindowsMemoryFloor(instanceType: string): boolean {
  const m = INSTANCE_TYPE.exec(instanceType);
  if (!m) return false;
  const [, family, size] = m;
  if (['nano', 'micro', 'small', 'medium'].includes(size)) return true;
  // Compute-optimised families have 2 GiB per vCPU: `c5.large` is 4 GiB.
  return size === 'large' && /^c\d/.test(family);
}

/**
 * Families EKS does not run Windows nodes on, from the facts (lib/core/facts/clouds.ts `EKS_NO_WINDOWS_FAMILIES`):
 * the families of AWS's last list (C3, C4, D2, I2, M4 but m4.16xlarge, M6a, R3) are refused; a family the facts mark
 * unverified would be a warning (none is).
 */
const NO_WINDOWS: readonly NoWindowsFamily[] = EKS_NO_WINDOWS_FAMILIES.families;

function noWindowsFamily(instanceType: string): NoWindowsFamily | undefined {
  const family = instanceFamily(instanceType);
  return NO_WINDOWS.find((f) => f.family === family && !(f.except ?? []).includes(instanceType));
}

/** The documented families, for messages: `C3, C4, D2, I2, M4 except m4.16xlarge, R3`. */
const DOCUMENTED_FAMILIES = NO_WINDOWS.filter((f) => f.verified !== false)
  .map((f) => `${f.family.toUpperCase()}${f.except ? ` except ${f.except.join(', ')}` : ''}`)
  .join(', ');

/** Whether EKS refuses Windows on an instance type's family (the documented families; see `NO_WINDOWS`). */
export function isWindowsUnsupportedInstanceType(instanceType: string): boolean {
  const found = noWindowsFamily(instanceType);
  return found !== undefined && found.verified !== false;
}

/**
 * A warning for an instance type whose family only an unverified copy of the list names, or undefined (no family is
 * unverified today).
 */
export function unverifiedWindowsInstanceTypeWarning(
  instanceType: unknown,
  path: string,
): { path: string; message: string; fix: string } | undefined {
  if (typeof instanceType !== 'string') return undefined;
  const found = noWindowsFamily(instanceType);
  if (found === undefined || found.verified !== false) return undefined;
  return {
    path,
    message: `Instance type '${instanceType}' is in ${found.family.toUpperCase()}, which aws-cdk's copy of the EKS list says has no Windows; the current EKS documentation no longer says so.`,
    fix: `Check that EC2 offers Windows on '${instanceType}' in your region, or use '${currentEquivalent(instanceType)}'.`,
  };
}

/** Checks a list of instance types for Windows nodes: syntax, x86_64, not Mac, not empty. */
export function checkWindowsInstanceTypes(instanceTypes: unknown, path = 'instanceTypes'): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!Array.isArray(instanceTypes)) {
    issues.push({
      path,
      message: `Instance types must be a list, got ${JSON.stringify(instanceTypes)}.`,
      fix: "Write e.g. ['m5.xlarge'].",
    });
    return issues;
  }
  if (instanceTypes.length === 0) {
    issues.push({
      path,
      message: 'The instance type list is empty.',
      fix: "Name at least one x86_64 type, e.g. ['m5.xlarge'].",
    });
  }
  instanceTypes.forEach((t: unknown, i) => issues.push(...checkWindowsInstanceType(t, `${path}[${i}]`)));
  return issues;
}

/** Checks one instance type for Windows nodes. */
export function checkWindowsInstanceType(instanceType: unknown, path = 'instanceType'): ValidationIssue[] {
  if (typeof instanceType !== 'string' || instanceFamily(instanceType) === undefined) {
    return [
      {
        path,
        message: `Instance type ${JSON.stringify(instanceType)} is not an EC2 instance type.`,
        fix: "Write 'family.size', e.g. 'm5.xlarge'.",
      },
    ];
  }
  if (isArmInstanceType(instanceType)) {
    return [
      {
        path,
        message: `Instance type '${instanceType}' is AWS Graviton (arm64); Windows AMIs are x86_64 only.`,
        fix: `Use an x86_64 family, e.g. '${x86Equivalent(instanceType)}'.`,
      },
    ];
  }
  if (isWindowsUnsupportedInstanceType(instanceType)) {
    return [
      {
        path,
        message: `Instance type '${instanceType}' is in a family EC2 does not offer for Windows workloads (${DOCUMENTED_FAMILIES}).`,
        fix: `Use a current x86_64 family, e.g. '${currentEquivalent(instanceType)}'.`,
      },
    ];
  }
  if (isMacInstanceType(instanceType)) {
    return [
      {
        path,
        message: `Instance type '${instanceType}' is an EC2 Mac instance; it runs macOS only.`,
        fix: "Use an x86_64 family, e.g. 'm5.xlarge'.",
      },
    ];
  }
  return [];
}

/** A current family with the same size: `c4.xlarge` → `c5.xlarge`, `m6a.large` → `m6i.large`, else `m5.xlarge`. */
function currentEquivalent(instanceType: string): string {
  const m = INSTANCE_TYPE.exec(instanceType);
  if (!m) return 'm5.xlarge';
  const [, family, size] = m;
  const next: Record<string, string> = { c3: 'c5', c4: 'c5', d2: 'd3', i2: 'i3', m4: 'm5', m6a: 'm6i', r3: 'r5' };
  return `${next[family] ?? 'm5'}.${size}`;
}

/** An x86_64 type to suggest: `m6g.xlarge` → `m6i.xlarge`, `t4g.large` → `t3.large`, otherwise `m5.xlarge`. */
function x86Equivalent(instanceType: string): string {
  const m = INSTANCE_TYPE.exec(instanceType);
  if (!m) return 'm5.xlarge';
  const [, family, size] = m;
  if (family === 't4g') return `t3.${size}`;
  // General, compute and memory families of generations 6 to 8 all have an Intel `i` sibling with the same sizes.
  const sibling = /^([mcr])([678])g[a-z]*$/.exec(family);
  return sibling ? `${sibling[1]}${sibling[2]}i.${size}` : 'm5.xlarge';
}
