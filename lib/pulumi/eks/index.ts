/**
 * `k8s-windows/pulumi/eks`: Windows node pools and cluster prerequisites for Amazon EKS. Loads only the
 * `@pulumi/aws` submodules it uses (eks, iam, ec2, autoscaling) and `@pulumi/kubernetes/core/v1`, never the
 * `@pulumi/aws` root index, Azure or GCP (test/pulumi/isolation.e2e.test.ts).
 *
 * Named exports only: the four components and their args. Their checks and renderers (user data, tags, IAM, AMI
 * types, instance types) are what the components run, not a second API; the policy pack reads the same rule modules.
 */
export { WindowsNodePool, type WindowsNodePoolArgs } from './windows-node-pool';
export { SelfManagedWindowsNodePool, type SelfManagedWindowsNodePoolArgs } from './self-managed-node-pool';
export { WindowsKarpenterNodePool, type WindowsKarpenterNodePoolArgs } from './karpenter-node-pool';
export { WindowsClusterPrerequisites, type WindowsClusterPrerequisitesArgs } from './cluster-prerequisites';
