/**
 * aks-windows-network-plugin: kubenet does not support Windows node pools (https://learn.microsoft.com/azure/aks/concepts-network). A cloud rule: the policy pack and the k8s-windows
 * components check it on azure-native:containerservice:ManagedCluster, k8s-windows:aks:WindowsNodePool, in lib/pulumi/aks/cluster.ts (aksClusterWarnings); this module is its catalogue entry.
 */
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
    resources: ['azure-native:containerservice:ManagedCluster', 'k8s-windows:aks:WindowsNodePool'],
  },
});
