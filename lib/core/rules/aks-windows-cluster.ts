/**
 * aks-windows-cluster: AKS Windows pools need a windowsProfile and Azure CNI
 * (https://learn.microsoft.com/azure/aks/windows-faq). A cloud rule: the policy pack and the components check it on
 * the resources its check lists, in lib/pulumi/aks/cluster.ts (checkAksClusterForWindows); this module is its
 * catalogue entry.
 */
import { AKS_CLUSTER, AKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-cluster',
    family: 'aks',
    defaultSeverity: 'error',
    summary:
      'An AKS cluster that cannot take the Windows pools the stack declares (no windowsProfile, kubenet, bring-your-own CNI).',
    rationale: 'Windows pools need a windowsProfile and Azure CNI.',
    docs: 'https://learn.microsoft.com/azure/aks/windows-faq',
    severityReason: 'AKS refuses the Windows pool.',
  },
  check: {
    scope: 'cloud',
    resources: [AKS_CLUSTER, AKS_POOL_COMPONENT],
  },
});
