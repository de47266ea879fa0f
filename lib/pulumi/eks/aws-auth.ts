/**
 * The `aws-auth` ConfigMap side of Windows nodes, for clusters whose authentication mode is `CONFIG_MAP` (no access
 * entries): the role mapping Windows nodes need, with the `eks:kube-proxy-windows` group that access entries of
 * type `EC2_WINDOWS` add by themselves. Without that group kube-proxy on the node cannot read Services and
 * Windows pods cannot resolve DNS (Karpenter troubleshooting, containers-roadmap#1977).
 * @see https://docs.aws.amazon.com/eks/latest/userguide/auth-configmap.html
 * @see https://docs.aws.amazon.com/eks/latest/userguide/launch-windows-workers.html
 */
import { stringify } from 'yaml';

/** The ConfigMap EKS reads role mappings from. */
export const AWS_AUTH_CONFIG_MAP = { name: 'aws-auth', namespace: 'kube-system' } as const;
/** The groups of a Windows node's role: the two of every node, and the one kube-proxy on Windows needs. */
export const WINDOWS_NODE_GROUPS = ['system:bootstrappers', 'system:nodes', 'eks:kube-proxy-windows'] as const;
/** The user name EKS gives a node: its private DNS name. */
export const NODE_USERNAME = 'system:node:{{EC2PrivateDNSName}}';

/** One `mapRoles` entry of `aws-auth`. */
export interface AwsAuthRoleMapping {
  readonly rolearn: string;
  readonly username: string;
  readonly groups: readonly string[];
}

/** The `mapRoles` entry that admits Windows nodes with role `roleArn`. */
export function windowsAwsAuthRoleMapping(roleArn: string): AwsAuthRoleMapping {
  return { rolearn: roleArn, username: NODE_USERNAME, groups: [...WINDOWS_NODE_GROUPS] };
}

/**
 * The `mapRoles` value (YAML) of `existing` plus the Windows mapping. An existing entry for the same role is
 * replaced, so the Windows groups cannot be lost to a shared entry.
 */
export function mapRolesWithWindows(existing: readonly AwsAuthRoleMapping[], windowsRoleArn: string): string {
  const others = existing.filter((m) => m.rolearn !== windowsRoleArn);
  return stringify(
    [...others, windowsAwsAuthRoleMapping(windowsRoleArn)].map((m) => ({ ...m, groups: [...m.groups] })),
  );
}
