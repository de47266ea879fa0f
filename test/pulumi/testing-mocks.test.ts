/**
 * The realistic provider mocks `runProgram` ships (`providerOutputs`, `invokeResult`), the project name it reads
 * from Pulumi.yaml, and the options that change them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import * as iam from '@pulumi/aws/iam';
import * as ssm from '@pulumi/aws/ssm';
import {
  findPulumiProject,
  invokeResult,
  providerOutputs,
  runProgram,
  type ProviderMockContext,
} from 'k8s-windows/pulumi/testing';

const CTX: ProviderMockContext = { project: 'p', stack: 's' };
const urn = (type: string, name: string): string => `urn:pulumi:s::p::${type}::${name}`;
const outputs = (type: string, name: string, inputs: Record<string, unknown> = {}, ctx = CTX) =>
  providerOutputs(type, name, urn(type, name), inputs, ctx);

describe('providerOutputs', () => {
  test('a name the program gave is kept; a left-out one is auto-named per provider', () => {
    expect(outputs('aws:iam/role:Role', 'nodes', { name: 'my-role' }).state.name).toBe('my-role');
    expect(outputs('aws:iam/role:Role', 'nodes').state.name).toMatch(/^nodes-[0-9a-f]{7}$/);
    expect(outputs('aws:iam/role:Role', 'nodes', { namePrefix: 'win-' }).state.name).toMatch(/^win-[0-9a-f]{26}$/);
    expect(outputs('aws:eks/nodeGroup:NodeGroup', 'linux', { clusterName: 'prod' }).state.nodeGroupName).toMatch(
      /^linux-[0-9a-f]{7}$/,
    );
    // Azure Native: 8 digits, no dash.
    expect(outputs('azure-native:resources:ResourceGroup', 'rg').state.name).toMatch(/^rg[0-9a-f]{8}$/);
    // Kubernetes: metadata.name, keeping the other metadata.
    const cm = outputs('kubernetes:core/v1:ConfigMap', 'settings', { metadata: { namespace: 'web' } });
    expect(cm.state.metadata).toEqual({
      namespace: 'web',
      name: expect.stringMatching(/^settings-[0-9a-f]{8}$/),
      uid: expect.any(String),
    });
    expect(cm.id).toBe(`web/${(cm.state.metadata as { name: string }).name}`);
  });

  test('the same URN gives the same values; another URN others', () => {
    expect(outputs('aws:eks/cluster:Cluster', 'prod')).toEqual(outputs('aws:eks/cluster:Cluster', 'prod'));
    expect(outputs('aws:eks/cluster:Cluster', 'prod').state.name).not.toBe(
      outputs('aws:eks/cluster:Cluster', 'staging').state.name,
    );
  });

  test('ARNs carry the account and region: given, from the aws:region config, else the defaults', () => {
    expect(outputs('aws:eks/cluster:Cluster', 'c', { name: 'c' }).state.arn).toBe(
      'arn:aws:eks:us-west-2:123456789012:cluster/c',
    );
    expect(
      outputs('aws:eks/cluster:Cluster', 'c', { name: 'c' }, { ...CTX, config: { 'aws:region': 'eu-west-1' } }).state
        .arn,
    ).toBe('arn:aws:eks:eu-west-1:123456789012:cluster/c');
    expect(
      outputs('aws:iam/role:Role', 'r', { name: 'r', path: '/eks/' }, { ...CTX, awsAccountId: '210987654321' }).state
        .arn,
    ).toBe('arn:aws:iam::210987654321:role/eks/r');
  });

  test('an EKS node group reports its Auto Scaling group; a launch template and a security group their ids', () => {
    const group = outputs('aws:eks/nodeGroup:NodeGroup', 'win', { clusterName: 'prod', nodeGroupName: 'win' });
    expect(group.id).toBe('prod:win');
    expect(group.state.resources).toEqual([
      {
        autoscalingGroups: [{ name: expect.stringMatching(/^eks-win-[0-9a-f-]{36}$/) }],
        remoteAccessSecurityGroupId: '',
      },
    ]);
    expect(group.state.arn).toMatch(/^arn:aws:eks:us-west-2:123456789012:nodegroup\/prod\/win\/[0-9a-f-]{36}$/);
    expect(outputs('aws:ec2/launchTemplate:LaunchTemplate', 'lt').id).toMatch(/^lt-[0-9a-f]{17}$/);
    expect(outputs('aws:ec2/securityGroup:SecurityGroup', 'sg').id).toMatch(/^sg-[0-9a-f]{17}$/);
    expect(outputs('aws:autoscaling/group:Group', 'asg', { name: 'asg' }).state.arn).toMatch(
      /^arn:aws:autoscaling:us-west-2:123456789012:autoScalingGroup:[0-9a-f-]{36}:autoScalingGroupName\/asg$/,
    );
  });

  test('AKS: ARM ids, the cluster FQDN and node resource group', () => {
    const cluster = outputs('azure-native:containerservice:ManagedCluster', 'aks', {
      resourceGroupName: 'rg',
      resourceName: 'aks',
      location: 'westeurope',
      dnsPrefix: 'shop',
      kubernetesVersion: '1.33',
    });
    expect(cluster.id).toBe(
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks',
    );
    expect(cluster.state).toMatchObject({
      name: 'aks',
      fqdn: expect.stringMatching(/^shop-[0-9a-f]{8}\.hcp\.westeurope\.azmk8s\.io$/),
      nodeResourceGroup: 'MC_rg_aks_westeurope',
      currentKubernetesVersion: '1.33',
    });
    const pool = outputs('azure-native:containerservice:AgentPool', 'win', {
      resourceGroupName: 'rg',
      resourceName: 'aks',
      agentPoolName: 'win',
    });
    expect(pool.id).toMatch(/managedClusters\/aks\/agentPools\/win$/);
  });

  test('GKE: the cluster endpoint and CA, a node pool id and instance groups', () => {
    const cluster = outputs('gcp:container/cluster:Cluster', 'gke', { name: 'gke', location: 'europe-west1' });
    expect(cluster.id).toBe('projects/mock-project/locations/europe-west1/clusters/gke');
    expect(cluster.state).toMatchObject({
      endpoint: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      masterAuth: { clusterCaCertificate: expect.any(String) },
    });
    const pool = outputs(
      'gcp:container/nodePool:NodePool',
      'win',
      { cluster: 'gke', location: 'europe-west1', name: 'win' },
      { ...CTX, config: { 'gcp:project': 'shop' } },
    );
    expect(pool.id).toBe('shop/europe-west1/gke/win');
    expect(pool.state.instanceGroupUrls).toEqual([
      expect.stringMatching(/^https:\/\/www\.googleapis\.com\/compute\/v1\/projects\/shop\/zones\/europe-west1-a\//),
    ]);
  });
});

describe('invokeResult', () => {
  test('answers the invokes the components and examples make, and nothing else', () => {
    expect(invokeResult('aws:index/getCallerIdentity:getCallerIdentity', {}, CTX)).toMatchObject({
      accountId: '123456789012',
    });
    expect(invokeResult('aws:index/getPartition:getPartition', {}, CTX)).toMatchObject({ partition: 'aws' });
    expect(invokeResult('aws:ssm/getParameter:getParameter', { name: '/aws/service/ami' }, CTX)).toMatchObject({
      value: expect.stringMatching(/^ami-[0-9a-f]{17}$/),
    });
    const creds = invokeResult('azure-native:containerservice:listManagedClusterUserCredentials', {}, CTX) as {
      kubeconfigs: { value: string }[];
    };
    expect(Buffer.from(creds.kubeconfigs[0].value, 'base64').toString()).toContain('kind: Config');
    expect(invokeResult('aws:ec2/getVpc:getVpc', {}, CTX)).toBeUndefined();
  });
});

describe('runProgram options', () => {
  test("providers: 'echo' is the old mocks: the state is the inputs, the id <name>-id", async () => {
    const run = await runProgram(() => new iam.Role('r', { assumeRolePolicy: '{}' }), { providers: 'echo' });
    expect(run.resources.map((r) => [r.id, r.props])).toEqual([['r-id', { assumeRolePolicy: '{}' }]]);
  });

  test('computed goes over the realistic outputs; call answers first, undefined leaves the token to the mocks', async () => {
    const run = await runProgram(
      () => {
        const role = new iam.Role('r', { assumeRolePolicy: '{}' });
        const ami = ssm.getParameterOutput({ name: '/aws/service/ami-windows-latest/x/image_id' }).value;
        const mine = ssm.getParameterOutput({ name: '/mine' }).value;
        return { arn: role.arn, name: role.name, ami, mine };
      },
      {
        computed: (type) => (type === 'aws:iam/role:Role' ? { arn: 'arn:aws:iam::1:role/given' } : {}),
        call: (_token, inputs) => (inputs.name === '/mine' ? { name: '/mine', value: 'mine' } : undefined),
      },
    );
    expect(run.outputs).toEqual({
      arn: 'arn:aws:iam::1:role/given',
      name: expect.stringMatching(/^r-[0-9a-f]{7}$/),
      ami: expect.stringMatching(/^ami-/),
      mine: 'mine',
    });
  });
});

describe('the project name', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-project-'));
    mkdirSync(path.join(dir, 'app', 'test'), { recursive: true });
    writeFileSync(path.join(dir, 'app', 'Pulumi.yaml'), 'name: shop\nruntime: nodejs\n');
    mkdirSync(path.join(dir, 'bad'));
    writeFileSync(path.join(dir, 'bad', 'Pulumi.yaml'), 'runtime: nodejs\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("is the nearest Pulumi.yaml's name, found upward, as the CLI finds it; in URNs and pulumi.getProject()", async () => {
    expect(findPulumiProject(path.join(dir, 'app', 'test'))).toBe('shop');
    const run = await runProgram(() => ({ project: pulumi.getProject() }), { workDir: path.join(dir, 'app', 'test') });
    expect(run.outputs).toEqual({ project: 'shop' });
  });

  test("without a Pulumi.yaml it is 'project'; an explicit project wins", async () => {
    expect(findPulumiProject(dir)).toBeUndefined();
    const none = await runProgram(() => new iam.Role('r', { assumeRolePolicy: '{}' }), { workDir: dir });
    expect(none.resources[0].urn).toBe('urn:pulumi:stack::project::aws:iam/role:Role::r');
    const given = await runProgram(() => ({ project: pulumi.getProject() }), {
      workDir: path.join(dir, 'app'),
      project: 'other',
    });
    expect(given.outputs).toEqual({ project: 'other' });
  });

  test('a Pulumi.yaml without a name is an error naming the file and the fix', async () => {
    await expect(runProgram(() => undefined, { workDir: path.join(dir, 'bad') })).rejects.toThrow(
      `${path.join(dir, 'bad', 'Pulumi.yaml')} has no project name (name: missing). Fix: Write name: my-project in it, or pass runProgram(program, { project: 'name' }).`,
    );
  });
});
