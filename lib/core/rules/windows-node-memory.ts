/**
 * windows-node-memory: Windows Server needs memory of its own before pods (https://learn.microsoft.com/windows-server/get-started/hardware-requirements). A cloud rule: the policy pack and the k8s-windows
 * components check it on azure-native:containerservice:AgentPool, gcp:container/nodePool:NodePool, k8s-windows:aks:WindowsNodePool, k8s-windows:gke:WindowsNodePool, in lib/pulumi/node-pool.ts (nodeMemoryWarnings); this module is its catalogue entry.
 */
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-node-memory',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary: 'A Windows node size with less memory than a Windows node needs (8 GiB).',
    rationale: 'Windows Server uses about 3.5 GB idle, leaving little for pods on small nodes.',
    docs: 'https://learn.microsoft.com/windows-server/get-started/hardware-requirements',
    severityReason: 'Nodes run, with little room for pods.',
  },
  check: {
    scope: 'cloud',
    resources: [
      'azure-native:containerservice:AgentPool',
      'gcp:container/nodePool:NodePool',
      'k8s-windows:aks:WindowsNodePool',
      'k8s-windows:gke:WindowsNodePool',
    ],
  },
});
