/**
 * gke-windows-node-pool: GKE Windows node pools have their own image and machine type limits
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). An alias: it was one id
 * for several conditions, now each its own rule (the ids it covers); a setting or suppression naming it applies to
 * all of them.
 */
import { GKE_NODE_POOL, GKE_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gke-windows-node-pool',
    family: 'gke',
    defaultSeverity: 'error',
    summary:
      'Alias of gke-windows-image-type, gke-windows-release, gke-windows-taint-effect and gke-windows-machine-type: a Windows node pool GKE refuses.',
    rationale:
      'GKE Windows pools need a Windows image type, an x86 machine type and a supported release for the cluster version.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows',
    severityReason: 'GKE refuses the pool, or its nodes cannot run Windows pods.',
    covers: ['gke-windows-image-type', 'gke-windows-release', 'gke-windows-taint-effect', 'gke-windows-machine-type'],
  },
  check: { scope: 'cloud', resources: [GKE_NODE_POOL, GKE_POOL_COMPONENT] },
});
