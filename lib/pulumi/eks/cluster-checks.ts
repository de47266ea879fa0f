/**
 * Stack-level checks of an EKS cluster that runs Windows nodes, for the policy pack (pure: resource types and
 * props in, issues out; never loads `@pulumi/aws`). Windows pods get no IP unless the cluster role carries the
 * `AmazonEKSVPCResourceController` policy and Windows IPAM is switched on, in the `amazon-vpc-cni` ConfigMap or in
 * the VPC CNI add-on's configuration values (an add-on update that resolves conflicts with OVERWRITE resets a
 * patched ConfigMap). Both can live outside the stack, so missing ones are warnings.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support
 */
import type { EksNodeGroupIssue } from './node-group-check';
import { runCloudRules } from '../../core/rules/cloud-runner';

export * from '../../core/cloud/eks-stack';

/**
 * Cluster-level issues of a stack with Windows nodes on EKS (none for a stack without): no
 * `AmazonEKSVPCResourceController` attachment, Windows IPAM switched on nowhere, or only in a ConfigMap that the
 * stack's own VPC CNI add-on overwrites. Values not known yet count as present.
 */
export function checkEksClusterForWindows(
  resources: readonly { readonly type: string; readonly props: Readonly<Record<string, unknown>> }[],
): EksNodeGroupIssue[] {
  return runCloudRules({ kind: 'eks-stack', props: { resources } });
}
