/**
 * Pure checks for AKS Windows agent pools. The field checks are shared by the `WindowsNodePool` component (on its
 * typed args) and by `checkAksAgentPoolInputs` (on a raw `azure-native:containerservice:AgentPool`, for the policy
 * pack), so a pool built by hand is held to the rules the component follows by construction.
 */
import type { ValidationIssue } from '../errors';
import { defaultReleaseFor, releasesOnKubernetes } from '../cloud-gates';
import { parseKubernetesMinor, WINDOWS_RELEASES, releaseInfo, type WindowsRelease } from '../releases';

import { TAINT_EFFECTS, WINDOWS_TAINT, type Taint, type TaintEffect } from '../target';
import {
  checkCloudReleaseForKubernetes,
  fromCloudTaintEffect,
  type GateOptions,
  isCloudTaintEffect,
  isLabelValue,
  isQualifiedName,
  nodeMemoryWarnings,
  taintToString,
} from './node-pools';
import { parseAzureVmSize } from './aks-vm-size';

/** The releases AKS takes on `version` today, its default first (none when the version is not readable). */
export function releasesForVersion(version: string): WindowsRelease[] {
  const minor = parseKubernetesMinor(version);
  if (minor === undefined) return [];
  const offered = releasesOnKubernetes('aks', minor);
  const first = defaultReleaseFor('aks', version);
  return offered.includes(first) ? [first, ...offered.filter((r) => r !== first)] : offered;
}

/** The `osType` of a Windows agent pool. */
export const AKS_WINDOWS_OS_TYPE = 'Windows';
/** The only agent pool mode a Windows pool may have: System pools host CoreDNS and friends, which need Linux. */
export const AKS_WINDOWS_POOL_MODE = 'User';
/** The default VM size: 4 vCPU / 16 GiB, the size AKS's Windows guides use (https://learn.microsoft.com/azure/aks/learn/quick-windows-container-deploy-cli). */
export const DEFAULT_AKS_WINDOWS_VM_SIZE = 'Standard_D4s_v5';
/** The AKS spelling of the conventional Windows taint. */
export const AKS_WINDOWS_TAINT = taintToString(WINDOWS_TAINT);

/**
 * Windows agent pool names: 1–6 lowercase letters or digits, starting with a letter (the Windows computer name
 * is built from it).
 * @see https://github.com/Azure/AKS/issues/2929
 * @see https://learn.microsoft.com/azure/aks/create-node-pools#limitations
 */
const AKS_WINDOWS_POOL_NAME = /^[a-z][a-z0-9]{0,5}$/;

/** The release whose AKS `osSKU` this is (`Windows2022` → `'2022'`). */
export function releaseForAksOsSku(osSku: string): WindowsRelease | undefined {
  return WINDOWS_RELEASES.find((r) => releaseInfo(r).aksOsSku === osSku);
}

/** Checks an AKS Windows agent pool name. */
export function checkAksPoolName(name: unknown, path: string): ValidationIssue[] {
  if (typeof name === 'string' && AKS_WINDOWS_POOL_NAME.test(name)) return [];
  const suggestion = typeof name === 'string' ? suggestPoolName(name) : 'win1';
  return [
    {
      path,
      message: `Agent pool name ${JSON.stringify(name)} is not valid for a Windows pool: AKS wants 1–6 lowercase letters or digits, starting with a letter (Azure/AKS#2929).`,
      fix: `Use a name such as '${suggestion}'.`,
    },
  ];
}

function suggestPoolName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/^[0-9]+/, '');
  return (cleaned || 'win').slice(0, 6);
}

/** Checks the agent pool mode: Windows pools cannot be System pools. */
export function checkAksPoolMode(mode: unknown, path: string): ValidationIssue[] {
  if (mode === undefined || mode === AKS_WINDOWS_POOL_MODE) return [];
  return [
    {
      path,
      message: `Agent pool mode ${JSON.stringify(mode)} is not allowed for a Windows pool: System pools run CoreDNS and other Linux-only system pods.`,
      fix: `Use mode '${AKS_WINDOWS_POOL_MODE}' and keep a Linux System pool in the cluster.`,
    },
  ];
}

/**
 * Checks a VM size for a Windows node: Arm sizes (the `p` feature letter, e.g. `Standard_D4ps_v5`) are refused
 * because Windows Server nodes need x86_64.
 */
export function checkAksVmSize(vmSize: unknown, path: string): ValidationIssue[] {
  if (vmSize === undefined) return [];
  if (typeof vmSize !== 'string' || vmSize.trim() === '') {
    return [
      {
        path,
        message: `VM size ${JSON.stringify(vmSize)} is not a VM size name.`,
        fix: `Write e.g. '${DEFAULT_AKS_WINDOWS_VM_SIZE}'.`,
      },
    ];
  }
  const parsed = parseAzureVmSize(vmSize);
  if (parsed === undefined) {
    return [
      {
        path,
        message: `VM size '${vmSize}' is not an Azure VM size name (Standard_<family><vCPUs>[features][_version]).`,
        fix: `Write e.g. '${DEFAULT_AKS_WINDOWS_VM_SIZE}' (see https://learn.microsoft.com/azure/virtual-machines/vm-naming-conventions).`,
      },
    ];
  }
  if (parsed.arch === 'arm64') {
    const x86 = vmSize.replace(
      /^(Standard_[A-Z]+\d+(?:-\d+)?)([a-z]*)/,
      (_m, head: string, features: string) => head + features.replace('p', ''),
    );
    return [
      {
        path,
        message: `VM size '${vmSize}' has an Arm-based processor (the 'p' in its name); Windows Server nodes need x86_64.`,
        fix: `Use an x86_64 size such as '${x86}'.`,
      },
    ];
  }
  return [];
}

/** The warning for a VM size whose memory is known and below what a Windows node needs. */
export function aksVmSizeWarnings(vmSize: unknown, path: string): ValidationIssue[] {
  if (typeof vmSize !== 'string') return [];
  return nodeMemoryWarnings(vmSize, parseAzureVmSize(vmSize)?.memoryGiB, path, DEFAULT_AKS_WINDOWS_VM_SIZE);
}

/**
 * Checks a release against the Kubernetes version the pool runs and AKS's retirements at `options.date` (the
 * gates and dates are data: core/facts/clouds.ts). Unparsable versions are refused; a version that is not a plain
 * string (an Output) is not known yet and passes the version gates, but a retired release is refused regardless.
 */
export function checkAksReleaseForKubernetes(
  release: WindowsRelease,
  kubernetesVersion: unknown,
  path: string,
  options: GateOptions = {},
): ValidationIssue[] {
  return checkCloudReleaseForKubernetes('aks', release, kubernetesVersion, path, options);
}

/**
 * Windows Server 2025 node pools need a FIPS-enabled image: "Windows Server 2025 node pools require a FIPS-enabled
 * image. When you add a Windows Server 2025 node pool, include `--enable-fips-image`" (the agent pool's
 * `enableFIPS`). FIPS cannot be disabled on them. The FIPS page also says FIPS is "enabled by default" on them, so
 * whether AKS accepts a pool that leaves `enableFIPS` unset is not clear: `false` is an error, unset a warning.
 * @see https://learn.microsoft.com/azure/aks/upgrade-windows-os#add-a-new-node-pool-to-an-existing-cluster
 * @see https://learn.microsoft.com/azure/aks/enable-fips-nodes
 */
export const AKS_FIPS_REQUIRED_RELEASES: readonly WindowsRelease[] = ['2025'];

/** Checks `enableFIPS` for a release: `false` where AKS requires FIPS is an error. */
export function checkAksFips(release: WindowsRelease, enableFIPS: unknown, path: string): ValidationIssue[] {
  if (!AKS_FIPS_REQUIRED_RELEASES.includes(release) || enableFIPS !== false) return [];
  return [
    {
      path,
      message: `${releaseInfo(release).displayName} node pools require a FIPS-enabled image, and enableFIPS is false.`,
      fix: 'Set enableFIPS: true (az aks nodepool add --enable-fips-image).',
    },
  ];
}

/** A taint parsed from the `key=value:Effect` string AKS takes, or why it cannot be. */
export type ParsedTaint = { ok: true; taint: Taint } | { ok: false; message: string; fix: string };

/**
 * Parses a taint written the way kubectl and AKS `nodeTaints` write it: `key=value:Effect` or `key:Effect`.
 * The effect must use the Kubernetes spelling (`NoSchedule`); `NO_SCHEDULE` is refused with the fix.
 */
export function parseTaintString(text: string): ParsedTaint {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) {
    return {
      ok: false,
      message: `Taint '${text}' has no effect: AKS taints are written 'key=value:Effect'.`,
      fix: "Write e.g. 'os=windows:NoSchedule'.",
    };
  }
  const head = text.slice(0, colon);
  const effect = text.slice(colon + 1);
  const eq = head.indexOf('=');
  const key = eq < 0 ? head : head.slice(0, eq);
  const value = eq < 0 ? undefined : head.slice(eq + 1);
  if (!isQualifiedName(key)) {
    return {
      ok: false,
      message: `Taint '${text}' has key '${key}', which is not a valid qualified name.`,
      fix: "Use a key such as 'os' or 'example.com/dedicated'.",
    };
  }
  if (value !== undefined && !isLabelValue(value)) {
    return {
      ok: false,
      message: `Taint '${text}' has value '${value}', which is not a valid label value.`,
      fix: 'Use at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit.',
    };
  }
  if (isCloudTaintEffect(effect)) {
    const k8s = fromCloudTaintEffect(effect);
    return {
      ok: false,
      message: `Taint '${text}' spells its effect '${effect}' (the EKS/GKE spelling); AKS takes the Kubernetes spelling.`,
      fix: `Write '${head}:${k8s}'.`,
    };
  }
  if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) {
    return {
      ok: false,
      message: `Taint '${text}' has effect '${effect}', which is not a Kubernetes taint effect.`,
      fix: `Use one of ${TAINT_EFFECTS.join(', ')}.`,
    };
  }
  return { ok: true, taint: { key, ...(value !== undefined ? { value } : {}), effect: effect as TaintEffect } };
}

/** Whether an agent pool is a Windows one (`osType: Windows`): the AKS pool rules leave others alone. */
export function isWindowsAgentPool(props: { readonly osType?: unknown }): boolean {
  return props.osType === AKS_WINDOWS_OS_TYPE;
}
