/**
 * gke-windows-node-pool: GKE Windows node pools have their own image and machine type limits
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). A cloud rule: the policy
 * pack and the components check it on the resources its check lists, in lib/pulumi/gke/node-pool-checks.ts
 * (checkGkeNodePoolInputs); this module is its catalogue entry.
 */
import { GKE_NODE_POOL, GKE_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gke-windows-node-pool',
    family: 'gke',
    defaultSeverity: 'error',
    summary:
      'A GKE Windows node pool GKE refuses or that breaks Windows scheduling (image type, machine type, taints, release).',
    rationale:
      'GKE Windows pools need a Windows image type, an x86 machine type and a supported release for the cluster version.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows',
    severityReason: 'GKE refuses the pool, or its nodes cannot run Windows pods.',
  },
  check: { scope: 'cloud', resources: [GKE_NODE_POOL, GKE_POOL_COMPONENT] },
});
