/**
 * The checks of a raw `azure-native:containerservice:AgentPool`, for the policy pack and pools built by hand: the
 * AKS and node-pool rule modules, through the one runner. The field checks the `WindowsNodePool` component shares
 * with them are in the core (lib/core/cloud/aks-agent-pool.ts), re-exported here.
 */
import type { WindowsWarning } from '../../core/pod-spec';
import type { CloudFinding } from '../../core/rules/cloud-findings';
import { runCloudRules } from '../../core/rules/cloud-runner';
import { findingWarnings } from '../finding-warnings';

export * from '../../core/cloud/aks-agent-pool';

/**
 * The refusals of a raw Windows agent pool (`osType: Windows`; others yield nothing; values not known yet are
 * skipped): osSKU a Windows release that fits `orchestratorVersion` and AKS's retirements at `options.date`
 * (aks-windows-release), the pool name (aks-windows-pool-name), mode not System (aks-windows-pool-mode), every
 * `nodeTaints` entry parses (aks-windows-pool-taints), an x86_64 VM size (aks-windows-vm-size).
 */
export function checkAksAgentPoolInputs(
  props: Record<string, unknown>,
  options: { readonly date?: string } = {},
): CloudFinding[] {
  return runCloudRules({ kind: 'aks-agent-pool', props }, options).filter((f) => f.severity === 'error');
}

/**
 * Soft problems of a raw Windows agent pool: no NoSchedule/NoExecute taint, a deprecated release, an osSKU left to
 * AKS's default, a VM size with less than 8 GiB, enableFIPS unset on a FIPS-only release.
 */
export function aksAgentPoolWarnings(
  props: Record<string, unknown>,
  options: { readonly date?: string } = {},
): WindowsWarning[] {
  return findingWarnings(runCloudRules({ kind: 'aks-agent-pool', props }, options));
}
