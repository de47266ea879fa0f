/**
 * gke-windows-cluster: GKE runs Windows pools only in Standard, VPC-native clusters with a Linux pool (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). A cloud rule: the policy pack and the k8s-windows
 * components check it on gcp:container/cluster:Cluster, k8s-windows:gke:WindowsNodePool, in lib/pulumi/gke/cluster-checks.ts (checkGkeClusterForWindows); this module is its catalogue entry.
 */
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
  check: { scope: 'cloud', resources: ['gcp:container/cluster:Cluster', 'k8s-windows:gke:WindowsNodePool'] },
});
