/**
 * gke-windows-cluster: GKE runs Windows pools only in Standard, VPC-native clusters with a Linux pool
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). An alias: it was one id for several
 * conditions, now each its own rule (the ids it covers; a cluster's inline Windows pools are held to the node pool
 * rules); a setting or suppression naming it applies to all of them.
 */
import { GKE_CLUSTER, GKE_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gke-windows-cluster',
    family: 'gke',
    defaultSeverity: 'error',
    summary:
      'Alias of gke-windows-autopilot, gke-windows-vpc-native and gke-windows-linux-pool: a GKE cluster that cannot take Windows pools.',
    rationale: 'GKE Windows pools need a Standard, VPC-native cluster with at least one Linux pool.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows',
    severityReason: 'GKE refuses the Windows pool.',
    covers: ['gke-windows-autopilot', 'gke-windows-vpc-native', 'gke-windows-linux-pool'],
  },
  check: { scope: 'cloud', resources: [GKE_CLUSTER, GKE_POOL_COMPONENT] },
});
