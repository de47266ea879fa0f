/**
 * IAM for Windows nodes: a node role of their own (a role shared with Linux nodes lost its Windows RBAC group
 * when EKS rewrote aws-auth: containers-roadmap#1977) with the three managed policies every EKS node needs.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/create-node-role.html
 */
import type * as pulumi from '@pulumi/pulumi';
import * as iam from '@pulumi/aws/iam';

/** Managed policies of an EKS node role. */
export const EKS_NODE_POLICIES = [
  'AmazonEKSWorkerNodePolicy',
  'AmazonEC2ContainerRegistryReadOnly',
  'AmazonEKS_CNI_Policy',
] as const;
/** Managed policy the cluster role needs before the VPC resource controller hands Windows pods IPs. */
export const VPC_RESOURCE_CONTROLLER_POLICY = 'AmazonEKSVPCResourceController';
/** The commercial partition; `aws-cn` and `aws-us-gov` need their own. */
export const DEFAULT_PARTITION = 'aws';

/** `arn:<partition>:iam::aws:policy/<name>`. */
export function managedPolicyArn(partition: string, policyName: string): string {
  return `arn:${partition}:iam::aws:policy/${policyName}`;
}

/** Trust policy letting EC2 instances assume the node role. */
export function ec2AssumeRolePolicy(partition: string): string {
  const service = partition === 'aws-cn' ? 'ec2.amazonaws.com.cn' : 'ec2.amazonaws.com';
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' }],
  });
}

export interface WindowsNodeRole {
  readonly role: iam.Role;
  readonly attachments: readonly iam.RolePolicyAttachment[];
}

/** Creates a node role for Windows nodes with the EKS node policies attached, parented to `parent`. */
export function createWindowsNodeRole(
  name: string,
  partition: string,
  parent: pulumi.Resource,
  tags?: pulumi.Input<Record<string, pulumi.Input<string>>>,
): WindowsNodeRole {
  const role = new iam.Role(
    `${name}-node-role`,
    {
      assumeRolePolicy: ec2AssumeRolePolicy(partition),
      description: 'EKS Windows node role (separate from Linux nodes: containers-roadmap#1977)',
      ...(tags !== undefined ? { tags } : {}),
    },
    { parent },
  );
  const attachments = EKS_NODE_POLICIES.map(
    (policy) =>
      new iam.RolePolicyAttachment(
        `${name}-${policy}`,
        { role: role.name, policyArn: managedPolicyArn(partition, policy) },
        { parent },
      ),
  );
  return { role, attachments };
}
