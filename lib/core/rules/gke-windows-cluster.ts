/**
 * gke-windows-cluster: GKE runs Windows pools only in Standard, VPC-native clusters with a Linux pool
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). A cloud rule: the policy
 * pack and the components check it on the resources its check lists, in lib/pulumi/gke/cluster-checks.ts
 * (checkGkeClusterForWindows); this module is its catalogue entry.
 */
import { GKE_CLUSTER, GKE_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gke-windows-cluster',
    family: 'gke',
    defaultSeverity: 'error',
    summary: 'A GKE cluster that cannot take Windows pools (Autopilot, not VPC-native, no Linux pool).',
    rationale: 'GKE Windows pools need a Standard, VPC-native cluster with at least one Linux pool.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows',
    severityReason: 'GKE refuses the Windows pool.',
  },
  check: { scope: 'cloud', resources: [GKE_CLUSTER, GKE_POOL_COMPONENT] },
});
