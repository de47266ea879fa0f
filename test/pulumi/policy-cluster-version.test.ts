/**
 * The policy pack on an EKS program whose Windows node group inherits the cluster's Kubernetes version (no
 * `version` of its own): a Windows Server 2025 AMI on a 1.32 cluster is refused (EKS runs 2025 from 1.35).
 * The program runs under mocks with `runProgram`; the policies see each resource's props (its state), as in `npm run plan`.
 */
import * as awsEks from '@pulumi/aws/eks';
import { runPolicies } from 'k8s-windows/pulumi/policy';
import { runProgram } from 'k8s-windows/pulumi/testing';

/** The EKS program of the report: a cluster on `clusterVersion`, a Windows node group of `amiType`. */
async function violationsOf(clusterVersion: string, nodeGroup: Partial<awsEks.NodeGroupArgs>) {
  const run = await runProgram(
    () => {
      const cluster = new awsEks.Cluster('prod', {
        roleArn: 'arn:aws:iam::123456789012:role/eks',
        version: clusterVersion,
        vpcConfig: { subnetIds: ['subnet-1', 'subnet-2'] },
      });
      new awsEks.NodeGroup('windows', {
        clusterName: cluster.name,
        nodeRoleArn: 'arn:aws:iam::123456789012:role/windows-nodes',
        subnetIds: ['subnet-1', 'subnet-2'],
        scalingConfig: { minSize: 1, desiredSize: 1, maxSize: 2 },
        taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
        tags: { 'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os': 'windows' },
        ...nodeGroup,
      });
    },
    // The provider names the cluster (auto-naming; fixed here to read the message), and the node group's
    // clusterName is that name.
    { computed: (type, name) => (type === 'aws:eks/cluster:Cluster' ? { name: `${name}-0a1b2c` } : {}) },
  );
  const violations = await runPolicies(run.resources);
  return violations.filter((v) => v.message.includes('eks-windows-kubernetes-version'));
}

test('a 2025 AMI on a node group that inherits a 1.32 cluster version is refused, on the node group', async () => {
  expect(await violationsOf('1.32', { amiType: 'WINDOWS_CORE_2025_x86_64' })).toEqual([
    {
      policy: 'windows-clusters',
      enforcementLevel: 'mandatory',
      urn: 'urn:pulumi:stack::k8s-windows-examples::aws:eks/nodeGroup:NodeGroup::windows',
      message:
        "[eks-windows-kubernetes-version] amiType 'WINDOWS_CORE_2025_x86_64' runs Windows Server 2025, and the node group sets no version, so it runs the version of cluster 'prod-0a1b2c': EKS runs Windows Server 2025 nodes on Kubernetes 1.35 or newer; '1.32' is older (https://docs.amazonaws.cn/eks/latest/userguide/eks-ami-versions-windows.md). Fix: Set the cluster's version to 1.35 or newer, or set amiType 'WINDOWS_CORE_2019_x86_64' or 'WINDOWS_CORE_2022_x86_64'.",
    },
  ]);
});

test('FULL_2025 too; a 1.35 cluster, or a 2022 AMI, passes', async () => {
  expect(await violationsOf('1.33', { amiType: 'WINDOWS_FULL_2025_x86_64' })).toHaveLength(1);
  expect(await violationsOf('1.35', { amiType: 'WINDOWS_CORE_2025_x86_64' })).toEqual([]);
  expect(await violationsOf('1.32', { amiType: 'WINDOWS_CORE_2022_x86_64' })).toEqual([]);
});

test("a node group's own version is checked once, by the node-pool policy, not against the cluster's", async () => {
  const found = await violationsOf('1.35', { amiType: 'WINDOWS_CORE_2025_x86_64', version: '1.32' });
  expect(found.map((v) => v.policy)).toEqual(['windows-node-pools']);
  // In the node group's inputs (version, amiType), not the core's releases.
  expect(found[0].message).toMatch(
    / Fix: Set version to 1\.35 or newer, or set amiType 'WINDOWS_CORE_2019_x86_64' or 'WINDOWS_CORE_2022_x86_64'\.$/,
  );
});
