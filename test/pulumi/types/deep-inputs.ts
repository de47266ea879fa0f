/**
 * Type-level tests (compiled by `npm run typecheck`, never run): an Output fits wherever a component arg would be
 * fed from another resource, as in @pulumi/aws's own args; the `@ts-expect-error` lines must stay errors.
 */
import type * as pulumi from '@pulumi/pulumi';
import type * as awsEks from '@pulumi/aws/eks';
import type * as iam from '@pulumi/aws/iam';
import type { WindowsClusterProfileArgs } from 'k8s-windows/pulumi/aks';
import type { WindowsDaemonSetArgs, WindowsDeploymentArgs } from 'k8s-windows/pulumi';
import type { WindowsKarpenterNodePoolArgs, WindowsNodePoolArgs } from 'k8s-windows/pulumi/eks';
import type { AwsAuthArgs } from '../../../lib/pulumi/eks/self-managed-node-pool';

declare const cluster: awsEks.Cluster;
declare const linuxRole: iam.Role;
declare const provider: pulumi.ProviderResource;
declare const imageTag: pulumi.Output<string>;

// The README's Karpenter snippet (TS2322 before issue 17).
export const karpenter: WindowsKarpenterNodePoolArgs = {
  clusterName: cluster.name,
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': cluster.name } }],
  securityGroupSelectorTerms: [{ id: cluster.vpcConfig.clusterSecurityGroupId }],
  tags: { cluster: cluster.name },
};
// A whole list from elsewhere fits too.
export const karpenterListOutput: WindowsKarpenterNodePoolArgs = {
  clusterName: 'prod',
  subnetSelectorTerms: cluster.vpcConfig.subnetIds.apply((ids) => ids.map((id) => ({ id }))),
  securityGroupSelectorTerms: [cluster.vpcConfig.clusterSecurityGroupId.apply((id) => ({ id }))],
};
export const karpenterBadId: WindowsKarpenterNodePoolArgs = {
  clusterName: 'prod',
  subnetSelectorTerms: [{ tags: { a: 'b' } }],
  // @ts-expect-error an id is a string
  securityGroupSelectorTerms: [{ id: 42 }],
};

export const awsAuth: AwsAuthArgs = {
  kubernetesProvider: provider,
  otherMapRoles: [{ rolearn: linuxRole.arn, username: 'system:node:{{EC2PrivateDNSName}}', groups: ['system:nodes'] }],
};

export const deployment: WindowsDeploymentArgs = {
  replicas: 2,
  podSpec: { containers: [{ name: 'iis', image: imageTag }] },
  windows: { gmsa: cluster.name },
};
// @ts-expect-error replicas is a number
export const badReplicas: WindowsDeploymentArgs = { replicas: '2', podSpec: { containers: [] } };
// @ts-expect-error a DaemonSet runs one pod per node: no replicas
export const daemonSetReplicas: WindowsDaemonSetArgs = { replicas: 2, podSpec: { containers: [] } };

export const aksProfile: WindowsClusterProfileArgs = {
  adminUsername: 'winadmin',
  adminPassword: imageTag,
  gmsa: { dnsServer: imageTag, rootDomainName: imageTag },
};

declare const teamTags: pulumi.Output<Record<string, string>>;
export const managedPool: WindowsNodePoolArgs = {
  clusterName: cluster.name,
  subnetIds: cluster.vpcConfig.subnetIds,
  nodeRoleArn: linuxRole.arn,
  tags: teamTags,
};
