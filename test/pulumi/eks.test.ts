import * as pulumi from '@pulumi/pulumi';
import { schedulingFor, type Taint, type WindowsRelease } from 'k8s-windows';
import { tolerationFor } from '../../lib/core/target';
import type * as eksModule from 'k8s-windows/pulumi/eks';
import type { EksAmiVariant } from '../../lib/core/cloud/eks-ami-types';
import { checkWindowsInstanceType, isWindowsUnsupportedInstanceType } from '../../lib/core/cloud/eks-instance-types';
import { windowsPodIpCapacity } from '../../lib/core/cloud/eks-tags';
import type * as prerequisitesModule from '../../lib/pulumi/eks/cluster-prerequisites';
import type * as nodePoolModule from '../../lib/pulumi/eks/windows-node-pool';
import { inputErrorsOf, mockPulumi, resolved, type Registered } from './mocks';

const { registered, findings } = mockPulumi((type, name) => {
  if (type === 'aws:iam/role:Role') return { arn: `arn:aws:iam::123456789012:role/${name}`, name };
  if (type === 'aws:eks/nodeGroup:NodeGroup' && name.startsWith('noasg')) return { resources: [] };
  if (type === 'aws:eks/nodeGroup:NodeGroup') {
    return { resources: [{ autoscalingGroups: [{ name: `eks-${name}-asg` }], remoteAccessSecurityGroupId: '' }] };
  }
  return {};
});

let eks: typeof eksModule;
// The components' own checks and values, from their modules (the entry exports the components only).
let nodePool: typeof nodePoolModule;
let prerequisites: typeof prerequisitesModule;
beforeAll(async () => {
  // Load after setMocks so the provider modules register against the mocked runtime.
  eks = await import('k8s-windows/pulumi/eks');
  nodePool = await import('../../lib/pulumi/eks/windows-node-pool');
  prerequisites = await import('../../lib/pulumi/eks/cluster-prerequisites');
});

const BASE = { clusterName: 'prod', subnetIds: ['subnet-a', 'subnet-b'] };

/** Builds a managed pool and waits until every child is registered. */
async function buildPool(
  name: string,
  args: Partial<eksModule.WindowsNodePoolArgs> = {},
): Promise<{ pool: eksModule.WindowsNodePool; of: (type: string) => Registered[] }> {
  const pool = new eks.WindowsNodePool(name, { ...BASE, ...args });
  await resolved(pool.nodeGroup.urn);
  await Promise.all(pool.autoscalingGroupTags.map((t) => resolved(t.urn)));
  if (pool.nodeRole) await resolved(pool.nodeRole.urn);
  return { pool, of: (type) => registered.filter((r) => r.type === type) };
}

/** `[rule-id] message` of each finding the components reported in this test. */
function warnings(): string[] {
  return findings.map((f) => `[${f.ruleId}] ${f.message}${f.fix ? ` Fix: ${f.fix}` : ''}`);
}

describe('WindowsNodePool (managed node group)', () => {
  test('defaults: Server Core 2022, the Windows taint in EKS spelling, 50 GiB, aws-cdk scaling, its own role', async () => {
    const { pool, of } = await buildPool('win');
    const [group] = of('aws:eks/nodeGroup:NodeGroup');
    expect(group.inputs).toEqual({
      clusterName: 'prod',
      subnetIds: ['subnet-a', 'subnet-b'],
      nodeRoleArn: 'arn:aws:iam::123456789012:role/win-node-role',
      amiType: 'WINDOWS_CORE_2022_x86_64',
      instanceTypes: ['m5.xlarge'],
      capacityType: 'ON_DEMAND',
      diskSize: 50,
      scalingConfig: { minSize: 1, maxSize: 2, desiredSize: 2 },
      labels: {},
      taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
      tags: {
        'k8s.io/cluster-autoscaler/node-template/resources/vpc.amazonaws.com/PrivateIPv4Address': '14',
        'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os': 'windows',
        'k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/windows-build': '10.0.20348',
        'k8s.io/cluster-autoscaler/node-template/taint/os': 'windows:NoSchedule',
      },
    });
    expect(pool.amiType).toBe('WINDOWS_CORE_2022_x86_64');
    expect(pool.release).toBe('2022');
    expect(await resolved(pool.nodeRoleArn)).toBe('arn:aws:iam::123456789012:role/win-node-role');
    expect(warnings()).toEqual([]);
  });

  test('node role: EC2 trust policy and the three EKS node policies', async () => {
    const { of } = await buildPool('win');
    const [role] = of('aws:iam/role:Role');
    expect(JSON.parse(role.inputs.assumeRolePolicy as string)).toEqual({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    });
    expect(of('aws:iam/rolePolicyAttachment:RolePolicyAttachment').map((a) => a.inputs)).toEqual([
      { role: 'win-node-role', policyArn: 'arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy' },
      { role: 'win-node-role', policyArn: 'arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly' },
      { role: 'win-node-role', policyArn: 'arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy' },
    ]);
  });

  test('a given role ARN is used as is: no role, no attachments', async () => {
    const { pool, of } = await buildPool('win', { nodeRoleArn: 'arn:aws:iam::1:role/windows-nodes' });
    expect(of('aws:iam/role:Role')).toEqual([]);
    expect(of('aws:iam/rolePolicyAttachment:RolePolicyAttachment')).toEqual([]);
    expect(of('aws:eks/nodeGroup:NodeGroup')[0].inputs.nodeRoleArn).toBe('arn:aws:iam::1:role/windows-nodes');
    expect(pool.nodeRole).toBeUndefined();
  });

  test('partition changes the policy ARNs and the trust principal', async () => {
    const { of } = await buildPool('cn', { partition: 'aws-cn' });
    expect(of('aws:iam/rolePolicyAttachment:RolePolicyAttachment')[0].inputs.policyArn).toBe(
      'arn:aws-cn:iam::aws:policy/AmazonEKSWorkerNodePolicy',
    );
    expect(JSON.parse(of('aws:iam/role:Role')[0].inputs.assumeRolePolicy as string).Statement[0].Principal).toEqual({
      Service: 'ec2.amazonaws.com.cn',
    });
  });

  test.each<[WindowsRelease, EksAmiVariant, string]>([
    ['2019', 'core', 'WINDOWS_CORE_2019_x86_64'],
    ['2019', 'full', 'WINDOWS_FULL_2019_x86_64'],
    ['2022', 'core', 'WINDOWS_CORE_2022_x86_64'],
    ['2022', 'full', 'WINDOWS_FULL_2022_x86_64'],
    ['2025', 'core', 'WINDOWS_CORE_2025_x86_64'],
    ['2025', 'full', 'WINDOWS_FULL_2025_x86_64'],
  ])('release %s, variant %s → amiType %s and the build label', async (release, amiVariant, amiType) => {
    const { pool, of } = await buildPool(`win-${release}-${amiVariant}`, { release, amiVariant });
    const inputs = of('aws:eks/nodeGroup:NodeGroup')[0].inputs;
    expect(inputs.amiType).toBe(amiType);
    const build = { '2019': '10.0.17763', '2022': '10.0.20348', '2025': '10.0.26100' }[release];
    expect(
      (inputs.tags as Record<string, string>)[
        'k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/windows-build'
      ],
    ).toBe(build);
    expect(pool.nodeTarget.labels['node.kubernetes.io/windows-build']).toBe(build);
    expect(pool.nodeTarget.release).toBe(release);
  });

  test('taints are converted to the EKS spelling; labels, scaling, disk, instance types, capacity are passed on', async () => {
    const taints: Taint[] = [
      { key: 'os', value: 'windows', effect: 'NoSchedule' },
      { key: 'example.com/dedicated', effect: 'NoExecute' },
      { key: 'team', value: 'web', effect: 'PreferNoSchedule' },
    ];
    const { of } = await buildPool('custom', {
      taints,
      labels: { 'example.com/pool': 'iis' },
      scaling: { minSize: 0, maxSize: 10, desiredSize: 3 },
      diskSize: 120,
      instanceTypes: ['m6i.2xlarge', 'm5.2xlarge'],
      capacityType: 'SPOT',
      nodeGroupName: 'windows-iis',
      kubernetesVersion: '1.31',
      tags: { team: 'web' },
    });
    const inputs = of('aws:eks/nodeGroup:NodeGroup')[0].inputs;
    expect(inputs.taints).toEqual([
      { key: 'os', value: 'windows', effect: 'NO_SCHEDULE' },
      { key: 'example.com/dedicated', effect: 'NO_EXECUTE' },
      { key: 'team', value: 'web', effect: 'PREFER_NO_SCHEDULE' },
    ]);
    expect(inputs.labels).toEqual({ 'example.com/pool': 'iis' });
    expect(inputs.scalingConfig).toEqual({ minSize: 0, maxSize: 10, desiredSize: 3 });
    expect(inputs.diskSize).toBe(120);
    expect(inputs.instanceTypes).toEqual(['m6i.2xlarge', 'm5.2xlarge']);
    expect(inputs.capacityType).toBe('SPOT');
    expect(inputs.nodeGroupName).toBe('windows-iis');
    expect(inputs.version).toBe('1.31');
    expect(inputs.tags).toEqual({
      team: 'web',
      'k8s.io/cluster-autoscaler/node-template/label/example.com/pool': 'iis',
      'k8s.io/cluster-autoscaler/node-template/resources/vpc.amazonaws.com/PrivateIPv4Address': '14',
      'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os': 'windows',
      'k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/windows-build': '10.0.20348',
      'k8s.io/cluster-autoscaler/node-template/taint/os': 'windows:NoSchedule',
      'k8s.io/cluster-autoscaler/node-template/taint/example.com/dedicated': ':NoExecute',
      'k8s.io/cluster-autoscaler/node-template/taint/team': 'web:PreferNoSchedule',
    });
    expect(of('aws:iam/role:Role')[0].inputs.tags).toEqual({ team: 'web' });
  });

  test('scaling defaults adapt to what is given', async () => {
    const { of } = await buildPool('zero', { scaling: { minSize: 0, maxSize: 5 } });
    expect(of('aws:eks/nodeGroup:NodeGroup')[0].inputs.scalingConfig).toEqual({
      minSize: 0,
      maxSize: 5,
      desiredSize: 2,
    });
  });

  test('autoscaler node-template tags are written onto the EKS-created Auto Scaling group', async () => {
    const { of } = await buildPool('win');
    expect(of('aws:autoscaling/tag:Tag').map((t) => [t.name, t.inputs])).toEqual([
      [
        'win-asg-resources-vpc-amazonaws-com-PrivateIPv4Address',
        {
          autoscalingGroupName: 'eks-win-node-group-asg',
          tag: {
            key: 'k8s.io/cluster-autoscaler/node-template/resources/vpc.amazonaws.com/PrivateIPv4Address',
            value: '14',
            propagateAtLaunch: false,
          },
        },
      ],
      [
        'win-asg-label-kubernetes-io-os',
        {
          autoscalingGroupName: 'eks-win-node-group-asg',
          tag: {
            key: 'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os',
            value: 'windows',
            propagateAtLaunch: false,
          },
        },
      ],
      [
        'win-asg-label-node-kubernetes-io-windows-build',
        {
          autoscalingGroupName: 'eks-win-node-group-asg',
          tag: {
            key: 'k8s.io/cluster-autoscaler/node-template/label/node.kubernetes.io/windows-build',
            value: '10.0.20348',
            propagateAtLaunch: false,
          },
        },
      ],
      [
        'win-asg-taint-os',
        {
          autoscalingGroupName: 'eks-win-node-group-asg',
          tag: {
            key: 'k8s.io/cluster-autoscaler/node-template/taint/os',
            value: 'windows:NoSchedule',
            propagateAtLaunch: false,
          },
        },
      ],
    ]);
  });

  test('tagAutoscalingGroup: false writes no ASG tags (the node group keeps them)', async () => {
    const { pool, of } = await buildPool('win', { tagAutoscalingGroup: false });
    expect(pool.autoscalingGroupTags).toEqual([]);
    expect(of('aws:autoscaling/tag:Tag')).toEqual([]);
    expect(of('aws:eks/nodeGroup:NodeGroup')[0].inputs.tags).toEqual(pool.autoscalerTags);
  });

  test('nodeTarget: workloads built from it tolerate exactly the taints the pool applies and select its labels', async () => {
    const taints: Taint[] = [
      { key: 'os', value: 'windows', effect: 'NoSchedule' },
      { key: 'example.com/gpu', effect: 'NoSchedule' },
    ];
    const { pool, of } = await buildPool('target', { taints, labels: { 'example.com/pool': 'gpu' } });
    const scheduling = schedulingFor(pool.nodeTarget);
    expect(scheduling.tolerations).toEqual(taints.map(tolerationFor));
    expect(scheduling.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.20348',
      'example.com/pool': 'gpu',
    });
    // The taints the node group registers, converted back, are the target's taints.
    const applied = (
      of('aws:eks/nodeGroup:NodeGroup')[0].inputs.taints as { key: string; value?: string; effect: string }[]
    ).map((t) => ({
      ...t,
      effect: { NO_SCHEDULE: 'NoSchedule', NO_EXECUTE: 'NoExecute', PREFER_NO_SCHEDULE: 'PreferNoSchedule' }[t.effect],
    }));
    expect(applied).toEqual(pool.nodeTarget.taints);
  });

  test('the nodeTarget is a plain object', async () => {
    const { pool } = await buildPool('plain');
    expect(JSON.parse(JSON.stringify(pool.nodeTarget))).toEqual({
      release: '2022',
      isolation: 'process',
      labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
    });
  });

  test('warnings carry rule ids: untainted pool, deprecated release, small instance', async () => {
    await buildPool('soft', { release: '2019', taints: [], instanceTypes: ['t3.medium'] });
    const w = warnings();
    expect(w).toHaveLength(3);
    expect(w[0]).toMatch(/^\[eks-windows-instance-memory\] Instance type 't3.medium'/);
    expect(w[1]).toMatch(/^\[windows-node-pool-untainted\] /);
    expect(w[2]).toMatch(/^\[windows-release-deprecated\] Windows Server 2019/);
  });

  describe('bad input', () => {
    test('every bad property at once, in one InputPropertiesError, before anything is registered', async () => {
      const errors = inputErrorsOf(
        () =>
          new eks.WindowsNodePool('bad', {
            ...BASE,
            release: '20H2' as WindowsRelease,
            amiVariant: 'nano' as EksAmiVariant,
            instanceTypes: ['m6g.large', 'm5.large', 'c7gn.xlarge'],
            taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' as Taint['effect'] }],
            scaling: { minSize: 5, maxSize: 2 },
            diskSize: 20,
            capacityType: 'RESERVED' as nodePoolModule.EksCapacityType,
          }),
      );
      expect(errors.map((e) => e.propertyPath)).toEqual([
        'release',
        'taints[0].effect',
        'scaling.minSize',
        'diskSize',
        'amiVariant',
        'instanceTypes[0]',
        'instanceTypes[2]',
        'capacityType',
      ]);
      expect(errors[0].reason).toMatch(/Semi-Annual Channel release 20H2.*Fix: Use an LTSC release/);
      expect(errors[1].reason).toBe(
        "Taint effect 'NO_SCHEDULE' is the cloud API spelling; this field takes the Kubernetes spelling. Fix: Write 'NoSchedule': it is converted to 'NO_SCHEDULE' for the cloud API.",
      );
      expect(errors[2].reason).toMatch(/minSize 5 is greater than maxSize 2/);
      expect(errors[3].reason).toMatch(/diskSize 20 GiB is below the 30 GiB/);
      expect(errors[5].reason).toBe(
        "Instance type 'm6g.large' is AWS Graviton (arm64); Windows AMIs are x86_64 only. Fix: Use an x86_64 family, e.g. 'm6i.large'.",
      );
      expect(errors[6].reason).toMatch(/'c7gn.xlarge' is AWS Graviton.*'c7i.xlarge'/);
      await new Promise((r) => setImmediate(r));
      expect(registered).toEqual([]);
    });

    test('the error message names the component and the count', () => {
      try {
        new eks.WindowsNodePool('bad', { ...BASE, diskSize: 10 });
        throw new Error('expected an error');
      } catch (e) {
        expect((e as Error).message).toBe("k8s-windows:eks:WindowsNodePool 'bad': 1 invalid property");
      }
    });

    test('desiredSize outside [min, max]', () => {
      expect(
        inputErrorsOf(
          () => new eks.WindowsNodePool('bad', { ...BASE, scaling: { minSize: 1, maxSize: 3, desiredSize: 5 } }),
        ),
      ).toEqual([
        {
          propertyPath: 'scaling.desiredSize',
          reason: 'desiredSize 5 is outside [minSize 1, maxSize 3]. Fix: Set desiredSize between 1 and 3.',
        },
      ]);
    });

    test('unknown release, bad labels, duplicate and long taints', () => {
      const errors = inputErrorsOf(
        () =>
          new eks.WindowsNodePool('bad', {
            ...BASE,
            release: '2016' as WindowsRelease,
            labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/role': 'web', 'bad key!': 'x' },
            taints: [
              { key: 'os', value: 'windows', effect: 'NoSchedule' },
              { key: 'os', value: 'other', effect: 'NoSchedule' },
              { key: `example.com/${'k'.repeat(60)}`, value: 'x', effect: 'NoExecute' },
            ],
          }),
      );
      expect(errors.map((e) => e.propertyPath)).toEqual([
        'release',
        'labels["kubernetes.io/os"]',
        'labels["kubernetes.io/role"]',
        'labels["bad key!"]',
        'taints[1]',
        'taints[2]',
      ]);
      expect(errors[0].reason).toMatch(/'2016' is Windows Server 2016/);
    });

    test('a taint longer than EKS accepts', () => {
      expect(
        inputErrorsOf(
          () =>
            new eks.WindowsNodePool('bad', {
              ...BASE,
              taints: [{ key: `example.com/${'k'.repeat(60)}`, effect: 'NoSchedule' }],
            }),
        ).map((e) => e.propertyPath),
      ).toEqual(['taints[0]']);
    });

    test('a build label that contradicts the release', () => {
      expect(
        inputErrorsOf(
          () =>
            new eks.WindowsNodePool('bad', {
              ...BASE,
              release: '2025',
              labels: { 'node.kubernetes.io/windows-build': '10.0.20348' },
            }),
        ),
      ).toEqual([
        {
          propertyPath: 'labels["node.kubernetes.io/windows-build"]',
          reason:
            "Label node.kubernetes.io/windows-build=10.0.20348 does not match Windows Server 2025 (build 10.0.26100). Fix: Remove it: the kubelet sets node.kubernetes.io/windows-build from the node's real build.",
        },
      ]);
    });

    test('checkWindowsNodePoolArgs returns the same issues without throwing', () => {
      expect(nodePool.checkWindowsNodePoolArgs({ ...BASE, instanceTypes: [] }).map((i) => i.path)).toEqual([
        'instanceTypes',
      ]);
      expect(nodePool.checkWindowsNodePoolArgs({ ...BASE })).toEqual([]);
    });
  });
});

describe('WindowsClusterPrerequisites', () => {
  async function build(name: string, args: Partial<eksModule.WindowsClusterPrerequisitesArgs> = {}) {
    const prereqs = new eks.WindowsClusterPrerequisites(name, {
      clusterName: 'prod',
      clusterRoleName: 'prod-cluster-role',
      ...args,
    });
    if (prereqs.vpcCniConfigMap) await resolved(prereqs.vpcCniConfigMap.urn);
    if (prereqs.vpcCniAddon) await resolved(prereqs.vpcCniAddon.urn);
    await resolved(prereqs.vpcResourceControllerAttachment.urn);
    await Promise.all(prereqs.accessEntries.map((e) => resolved(e.urn)));
    return { prereqs, of: (type: string) => registered.filter((r) => r.type === type) };
  }

  test('vpcCniAddon: Windows IPAM through the managed add-on configuration values, no ConfigMap patch', async () => {
    const { prereqs, of } = await build('addon', {
      vpcCniAddon: {
        addonVersion: 'v1.19.2-eksbuild.1',
        windowsPrefixDelegation: true,
        configurationValues: { env: { WARM_IP_TARGET: '2' } },
      },
    });
    expect(prereqs.vpcCniConfigMap).toBeUndefined();
    expect(of('kubernetes:core/v1:ConfigMapPatch')).toEqual([]);
    const [addon] = of('aws:eks/addon:Addon');
    expect(addon.inputs).toMatchObject({
      clusterName: 'prod',
      addonName: 'vpc-cni',
      addonVersion: 'v1.19.2-eksbuild.1',
      resolveConflictsOnCreate: 'OVERWRITE',
      resolveConflictsOnUpdate: 'OVERWRITE',
    });
    expect(JSON.parse(String(addon.inputs.configurationValues))).toEqual({
      env: { WARM_IP_TARGET: '2' },
      enableWindowsIpam: 'true',
      enableWindowsPrefixDelegation: 'true',
    });
    expect(prerequisites.vpcCniWindowsConfigurationValues()).toEqual({
      enableWindowsIpam: 'true',
      enableWindowsPrefixDelegation: 'false',
    });
  });

  test("vpcCniAddon: the Windows keys are the component's", () => {
    expect(
      inputErrorsOf(
        () =>
          new eks.WindowsClusterPrerequisites('x', {
            clusterName: 'prod',
            clusterRoleName: 'r',
            vpcCniAddon: { configurationValues: { enableWindowsIpam: 'false' } },
          }),
      ).map((e) => e.propertyPath),
    ).toEqual(['vpcCniAddon.configurationValues.enableWindowsIpam']);
  });

  test('patches amazon-vpc-cni with enable-windows-ipam, forcing ownership of that key', async () => {
    const { of } = await build('pre', { linuxNodeGroup: 'existing' });
    expect(of('kubernetes:core/v1:ConfigMapPatch').map((r) => r.inputs)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'amazon-vpc-cni',
          namespace: 'kube-system',
          annotations: { 'pulumi.com/patchForce': 'true' },
        },
        data: { 'enable-windows-ipam': 'true' },
      },
    ]);
  });

  test('forceConfigMapPatch: false leaves the annotation out', async () => {
    const { of } = await build('pre', { linuxNodeGroup: 'existing', forceConfigMapPatch: false });
    expect(
      (of('kubernetes:core/v1:ConfigMapPatch')[0].inputs.metadata as Record<string, unknown>).annotations,
    ).toBeUndefined();
  });

  test('attaches AmazonEKSVPCResourceController to the cluster role', async () => {
    const { of } = await build('pre', { linuxNodeGroup: 'existing' });
    expect(of('aws:iam/rolePolicyAttachment:RolePolicyAttachment').map((r) => r.inputs)).toEqual([
      { role: 'prod-cluster-role', policyArn: 'arn:aws:iam::aws:policy/AmazonEKSVPCResourceController' },
    ]);
  });

  test('EC2_WINDOWS access entries for self-managed node roles', async () => {
    const { of } = await build('pre', {
      linuxNodeGroup: 'existing',
      windowsNodeRoleArns: ['arn:aws:iam::1:role/win-a', 'arn:aws:iam::1:role/win-b'],
    });
    expect(of('aws:eks/accessEntry:AccessEntry').map((r) => r.inputs)).toEqual([
      { clusterName: 'prod', principalArn: 'arn:aws:iam::1:role/win-a', type: 'EC2_WINDOWS' },
      { clusterName: 'prod', principalArn: 'arn:aws:iam::1:role/win-b', type: 'EC2_WINDOWS' },
    ]);
  });

  test('warns with a rule id when no Linux node group is declared, not when one is', async () => {
    await build('none');
    expect(warnings()).toEqual([
      expect.stringMatching(/^\[eks-windows-linux-node-group\] No Linux node group was declared/),
    ]);
    const before = findings.length;
    await build('existing', { linuxNodeGroup: 'existing' });
    const linux = new pulumi.ComponentResource('test:index:LinuxNodes', 'linux');
    await build('resource', { linuxNodeGroup: linux });
    expect(findings.slice(before)).toEqual([]);
  });

  test('bad args are refused at once', () => {
    expect(
      inputErrorsOf(
        () =>
          new eks.WindowsClusterPrerequisites('bad', {
            clusterName: 'prod',
            clusterRoleName: 'role',
            linuxNodeGroup: 'yes' as prerequisitesModule.ExistingLinuxNodeGroup,
            partition: 'azure',
          }),
      ).map((e) => e.propertyPath),
    ).toEqual(['linuxNodeGroup', 'partition']);
  });
});

describe('issue 9: failures the managed pool now refuses or survives', () => {
  test('tagAutoscalingGroup: false survives a node group that reports no Auto Scaling group', async () => {
    const rejections: unknown[] = [];
    const onRejection = (e: unknown): void => void rejections.push(e);
    process.on('unhandledRejection', onRejection);
    try {
      const pool = new eks.WindowsNodePool('noasg', { ...BASE, tagAutoscalingGroup: false });
      await resolved(pool.nodeGroup.urn);
      await new Promise((r) => setTimeout(r, 50));
      expect(pool.autoscalingGroupTags).toEqual([]);
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  test('release 2025 needs Kubernetes 1.35 on EKS; the version is checked when plain', () => {
    expect(
      inputErrorsOf(() => new eks.WindowsNodePool('w', { ...BASE, release: '2025', kubernetesVersion: '1.34' })),
    ).toEqual([
      {
        propertyPath: 'kubernetesVersion',
        reason: expect.stringMatching(
          /EKS runs Windows Server 2025 nodes on Kubernetes 1.35 or newer; '1.34' is older.*Fix: Use Kubernetes 1.35 or newer/,
        ),
      },
    ]);
    expect(() => new eks.WindowsNodePool('w', { ...BASE, release: '2025', kubernetesVersion: '1.35' })).not.toThrow();
    // An Output is checked once known (test/pulumi/refused-outputs.e2e.test.ts), not at construction.
    expect(
      () => new eks.WindowsNodePool('w', { ...BASE, release: '2025', kubernetesVersion: pulumi.output('1.35') }),
    ).not.toThrow();
  });

  test('a pool on a 1.33 cluster (clusterVersion, no kubernetesVersion) is held to the same gate: 2025 refused', () => {
    expect(
      inputErrorsOf(() => new eks.WindowsNodePool('w', { ...BASE, release: '2025', clusterVersion: '1.33' })),
    ).toEqual([
      {
        propertyPath: 'clusterVersion',
        reason: expect.stringMatching(
          /^EKS runs Windows Server 2025 nodes on Kubernetes 1\.35 or newer; '1\.33' is older .*Fix: Use Kubernetes 1\.35 or newer, or release '2019' or '2022'\.$/,
        ),
      },
    ]);
    // The pool's own version wins over the cluster's.
    expect(
      () =>
        new eks.WindowsNodePool('w', { ...BASE, release: '2025', clusterVersion: '1.33', kubernetesVersion: '1.35' }),
    ).not.toThrow();
  });

  test('clusterName and subnetIds are required, subnet ids checked when plain', () => {
    const errors = inputErrorsOf(
      () => new eks.WindowsNodePool('w', { clusterName: '', subnetIds: ['subnet-0abc', 'sg-123'] }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual(['clusterName', 'subnetIds[1]']);
    expect(
      inputErrorsOf(() => new eks.WindowsNodePool('w', {} as eksModule.WindowsNodePoolArgs)).map((e) => e.propertyPath),
    ).toEqual(['clusterName', 'subnetIds']);
    expect(inputErrorsOf(() => new eks.WindowsNodePool('w', { ...BASE, subnetIds: [] }))[0].reason).toMatch(/empty/);
  });

  test.each([undefined, null])('args %p: one InputPropertiesError, not a TypeError', (args) => {
    const errors = inputErrorsOf(() => new eks.WindowsNodePool('w', args as unknown as eksModule.WindowsNodePoolArgs));
    expect(errors).toEqual([{ propertyPath: 'args', reason: expect.stringContaining('needs an args object') }]);
    expect(
      inputErrorsOf(
        () => new eks.SelfManagedWindowsNodePool('w', args as unknown as eksModule.SelfManagedWindowsNodePoolArgs),
      ),
    ).toHaveLength(1);
    expect(
      inputErrorsOf(
        () => new eks.WindowsClusterPrerequisites('w', args as unknown as eksModule.WindowsClusterPrerequisitesArgs),
      ),
    ).toHaveLength(1);
  });

  test('an Output where a plain value is checked gets a clear reason, not a toJSON complaint', () => {
    const errors = inputErrorsOf(
      () =>
        new eks.WindowsNodePool('w', {
          ...BASE,
          release: pulumi.output('2022') as unknown as WindowsRelease,
          labels: { team: pulumi.output('a') as unknown as string },
          diskSize: 10,
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual(['release', 'labels["team"]', 'diskSize']);
    expect(errors[0].reason).toMatch(/release is an Output or a Promise.*must be a plain value/);
    expect(errors.every((e) => !e.reason.includes('toJSON'))).toBe(true);
  });

  test.each(['c4.xlarge', 'm4.large', 'r3.2xlarge', 'd2.xlarge', 'i2.xlarge', 'c3.large'])(
    'instance type %s: EC2 offers no Windows on its family',
    (t) => {
      const errors = inputErrorsOf(() => new eks.WindowsNodePool('w', { ...BASE, instanceTypes: [t] }));
      expect(errors).toEqual([
        { propertyPath: 'instanceTypes[0]', reason: expect.stringContaining('does not offer for Windows workloads') },
      ]);
    },
  );

  test("m6a (on the EKS guide's list, with M4 and the rest, from 2022-01 until the list went in 2023-04) is refused like them", () => {
    const errors = inputErrorsOf(() => new eks.WindowsNodePool('w6a', { ...BASE, instanceTypes: ['m6a.xlarge'] }));
    expect(errors).toEqual([
      { propertyPath: 'instanceTypes[0]', reason: expect.stringContaining('does not offer for Windows workloads') },
    ]);
    expect(isWindowsUnsupportedInstanceType('m6a.xlarge')).toBe(true);
  });

  test('a pool that scales from zero on a type whose pod IP capacity is not known warns under eks-windows-autoscaler-tags', async () => {
    expect(
      () =>
        new eks.WindowsNodePool('wz', {
          ...BASE,
          instanceTypes: ['x2iedn.xlarge'],
          scaling: { minSize: 0, maxSize: 2, desiredSize: 0 },
        }),
    ).not.toThrow();
    await new Promise((r) => setTimeout(r, 0));
    expect(warnings()).toEqual(
      expect.arrayContaining([
        "[eks-windows-autoscaler-tags] The Windows pod IP capacity of x2iedn.xlarge is not known here, so the group gets no k8s.io/cluster-autoscaler/node-template/resources/vpc.amazonaws.com/PrivateIPv4Address tag and Cluster Autoscaler cannot scale it up from zero. Fix: Tag the Auto Scaling group with that key and the type's IPv4 addresses per interface minus one, or keep minSize ≥ 1.",
      ]),
    );
  });

  test('m4.16xlarge is the M4 exception', () => {
    expect(isWindowsUnsupportedInstanceType('m4.16xlarge')).toBe(false);
    expect(isWindowsUnsupportedInstanceType('m4.10xlarge')).toBe(true);
    expect(checkWindowsInstanceType('c4.2xlarge')[0].fix).toBe("Use a current x86_64 family, e.g. 'c5.2xlarge'.");
  });
});

describe('issue 9: scale from zero', () => {
  test('the Windows pod IP resource is a node-template tag, sized for the smallest instance type', async () => {
    const { pool } = await buildPool('zero', {
      instanceTypes: ['m5.2xlarge', 'c6i.large'],
      scaling: { minSize: 0, maxSize: 3 },
    });
    expect(
      pool.autoscalerTags['k8s.io/cluster-autoscaler/node-template/resources/vpc.amazonaws.com/PrivateIPv4Address'],
    ).toBe('9');
    expect(windowsPodIpCapacity('m5.xlarge')).toBe(14);
    expect(windowsPodIpCapacity('t3.medium')).toBe(5);
    expect(windowsPodIpCapacity('x2iedn.xlarge')).toBeUndefined();
  });

  test('an unknown type in a pool that can be empty: no resource tag, a warning', async () => {
    const { pool } = await buildPool('zero2', {
      instanceTypes: ['x2iedn.xlarge'],
      scaling: { minSize: 0, maxSize: 2 },
    });
    expect(Object.keys(pool.autoscalerTags).some((k) => k.includes('/resources/'))).toBe(false);
    expect(warnings().some((w) => w.includes('cannot scale it up from zero'))).toBe(true);
  });
});
