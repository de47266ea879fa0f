/**
 * aks-windows-network-plugin: kubenet does not support Windows node pools
 * (https://learn.microsoft.com/azure/aks/concepts-network). A cloud rule: the policy pack and the components check
 * it on the resources its check lists, in lib/pulumi/aks/cluster.ts (aksClusterWarnings); this module is its
 * catalogue entry.
 */
import { AKS_CLUSTER, AKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-network-plugin',
    family: 'aks',
    defaultSeverity: 'warning',
    summary: 'An AKS cluster with Windows pools that leaves networkPlugin to the default.',
    rationale: "AKS's default network plugin depends on the API version, and kubenet refuses Windows pools.",
    docs: 'https://learn.microsoft.com/azure/aks/concepts-network',
    severityReason: 'Works where the default is Azure CNI.',
  },
  check: {
    scope: 'cloud',
    resources: [AKS_CLUSTER, AKS_POOL_COMPONENT],
  },
});
