/**
 * The checks of a raw `aws:eks/nodeGroup:NodeGroup`'s inputs, for node groups not built with `WindowsNodePool` (the
 * CrossGuard policy pack runs them on every node group): the EKS rule modules, through the one runner.
 */
import { runCloudRules } from '../../core/rules/cloud-runner';
import type { EksNodeGroupIssue } from '../../core/cloud/eks-node-group';

export * from '../../core/cloud/eks-node-group';

/**
 * Validates a raw `aws.eks.NodeGroup`'s inputs when its amiType is (or looks like) Windows: amiType spelling,
 * taint effect spelling, the `os=windows` taint, x86_64 instance types, the Cluster Autoscaler `kubernetes.io/os`
 * tag, disk size. Returns no issues for Linux node groups. Unknown (preview) values are skipped, not flagged.
 */
export function checkEksNodeGroupInputs(
  props: Record<string, unknown>,
  options: { readonly date?: string } = {},
): EksNodeGroupIssue[] {
  return runCloudRules({ kind: 'eks-node-group', props }, options);
}

/** The version of the cluster a node group runs, when the stack declares that cluster. */
export interface InheritedClusterVersion {
  /** The cluster's `name`, which the node group's `clusterName` matches. */
  readonly clusterName: string;
  /** The cluster's `version` input (unknown values are skipped). */
  readonly version: unknown;
}

/**
 * A Windows node group that sets no `version` runs its cluster's Kubernetes version (EKS creates it on the
 * cluster's): checks its release against that version, as `checkEksNodeGroupInputs` does against `version` when
 * it is set. The finding is on `amiType`, the input the user wrote; the fix names the cluster's `version`.
 */
export function checkEksNodeGroupInheritedVersion(
  props: Record<string, unknown>,
  cluster: InheritedClusterVersion,
): EksNodeGroupIssue[] {
  return runCloudRules({
    kind: 'eks-node-group-in-cluster',
    props: { nodeGroup: props, cluster: { name: cluster.clusterName, version: cluster.version } },
  });
}
