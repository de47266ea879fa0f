/**
 * aks-windows-cluster: AKS Windows pools need a windowsProfile and Azure CNI
 * (https://learn.microsoft.com/azure/aks/windows-faq). An alias: it was one id for several
 * conditions, now each its own rule (the ids it covers; a cluster's inline Windows pools are held to the agent pool
 * rules); a setting or suppression naming it applies to all of them.
 */
import { AKS_CLUSTER, AKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-cluster',
    family: 'aks',
    defaultSeverity: 'error',
    summary:
      'Alias of aks-windows-profile, aks-windows-cni and aks-windows-dataplane: an AKS cluster that cannot take the Windows pools the stack declares.',
    rationale: 'Windows pools need a windowsProfile and Azure CNI.',
    docs: 'https://learn.microsoft.com/azure/aks/windows-faq',
    severityReason: 'AKS refuses the Windows pool.',
    covers: ['aks-windows-profile', 'aks-windows-cni', 'aks-windows-dataplane'],
  },
  check: {
    scope: 'cloud',
    resources: [AKS_CLUSTER, AKS_POOL_COMPONENT],
  },
});
