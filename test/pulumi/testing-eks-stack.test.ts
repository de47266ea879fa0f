/**
 * The "Testing Pulumi programs" example of docs/pulumi.md, run as written: the block is taken from the page,
 * compiled, and its `test` run here with its own timeout (so the page cannot drift from what passes). Its program is
 * the newcomer's EKS stack of issue 27 (a cluster, a Linux node group, `WindowsClusterPrerequisites`, `WindowsNodePool`,
 * `WindowsKarpenterNodePool`); the tests below check what the realistic mocks gave it, field by field.
 */
import ts from 'typescript';
import { runPolicies } from 'k8s-windows/pulumi/policy';
import { runProgram, type MockedResource } from 'k8s-windows/pulumi/testing';
import { docBlocks } from '../../scripts/readme-examples';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The block of the README or docs/ that imports `k8s-windows/pulumi/testing` (there must be exactly one). */
function readmeExample(): string {
  const blocks = docBlocks().filter((b) => b.code.includes("from 'k8s-windows/pulumi/testing'"));
  expect(blocks).toHaveLength(1);
  return blocks[0].code;
}

/** The block compiled to CommonJS and run with this file's `require` (jest maps `k8s-windows/*` to lib/). */
function loadExample(): { tests: [string, () => Promise<void>, number?][]; program: () => unknown } {
  const js = ts.transpileModule(readmeExample(), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const tests: [string, () => Promise<void>, number?][] = [];
  const collect = (name: string, fn: () => Promise<void>, timeout?: number): void =>
    void tests.push([name, fn, timeout]);
  const module = { exports: {} };
  const run = new Function('require', 'module', 'exports', 'test', 'it', 'expect', `${js}\nreturn program;`) as (
    ...args: unknown[]
  ) => () => unknown;
  const program = run(require, module, module.exports, collect, collect, expect);
  return { tests, program };
}

const example = loadExample();

describe('docs/pulumi.md: Testing Pulumi programs', () => {
  test('the block declares one test', () => {
    expect(example.tests.map(([name]) => name)).toEqual([
      'Windows capacity on EKS: a managed pool and Karpenter, passing the policy pack',
    ]);
  });
  test('the block gives its test a timeout above jest’s default, as a stack under mocks may need', () => {
    expect(example.tests.map(([, , timeout]) => timeout)).toEqual([60_000]);
  });
  for (const [name, fn, timeout] of example.tests) test(`as written: ${name}`, fn, timeout);
});

describe("docs/pulumi.md's EKS + Karpenter program under the realistic mocks", () => {
  let resources: readonly MockedResource[];
  const one = (type: string, name: string): MockedResource => {
    const found = resources.filter((r) => r.type === type && r.name === name);
    expect(found).toHaveLength(1);
    return found[0];
  };
  beforeAll(async () => {
    ({ resources } = await runProgram(example.program));
  });

  test('auto-names: the logical name, a dash and 7 hex digits, fixed by the URN; ids and ARNs as AWS gives them', () => {
    const role = one('aws:iam/role:Role', 'cluster');
    expect(role.props.name).toMatch(/^cluster-[0-9a-f]{7}$/);
    expect(role.id).toBe(role.props.name);
    expect(role.props.arn).toBe(`arn:aws:iam::123456789012:role/${String(role.props.name)}`);
    const cluster = one('aws:eks/cluster:Cluster', 'prod');
    expect(cluster.props).toMatchObject({
      name: expect.stringMatching(/^prod-[0-9a-f]{7}$/),
      arn: expect.stringMatching(/^arn:aws:eks:us-west-2:123456789012:cluster\/prod-[0-9a-f]{7}$/),
      endpoint: expect.stringMatching(/^https:\/\/[0-9A-F]{32}\.gr7\.us-west-2\.eks\.amazonaws\.com$/),
      vpcConfig: {
        subnetIds: ['subnet-0a1b2c3d4e5f60001', 'subnet-0a1b2c3d4e5f60002'],
        clusterSecurityGroupId: expect.stringMatching(/^sg-[0-9a-f]{17}$/),
        vpcId: expect.stringMatching(/^vpc-[0-9a-f]{17}$/),
      },
    });
    // The cluster's role gets the VPC resource controller policy by its auto-name.
    expect(
      one('aws:iam/rolePolicyAttachment:RolePolicyAttachment', 'windows-vpc-resource-controller').inputs.role,
    ).toBe(role.props.name);
  });

  test("Karpenter's EC2NodeClass gets the node role's name, the cluster's name and its security group", () => {
    const cluster = one('aws:eks/cluster:Cluster', 'prod').props as Json;
    const role = one('aws:iam/role:Role', 'karpenter-node-role').props;
    const spec = one('kubernetes:karpenter.k8s.aws/v1:EC2NodeClass', 'karpenter-node-class').inputs.spec as Json;
    expect(spec.role).toBe(role.name);
    expect(spec.subnetSelectorTerms).toEqual([{ tags: { 'karpenter.sh/discovery': cluster.name } }]);
    expect(spec.securityGroupSelectorTerms).toEqual([{ id: cluster.vpcConfig.clusterSecurityGroupId }]);
    expect(one('aws:eks/accessEntry:AccessEntry', 'karpenter-access-entry').inputs).toEqual({
      clusterName: cluster.name,
      principalArn: role.arn,
      type: 'EC2_WINDOWS',
    });
  });

  test("the managed pool's Cluster Autoscaler tags go to the Auto Scaling group EKS reports", () => {
    const group = one('aws:eks/nodeGroup:NodeGroup', 'windows-node-group').props as Json;
    const asg = group.resources[0].autoscalingGroups[0].name as string;
    expect(asg).toMatch(
      /^eks-windows-node-group-[0-9a-f]{7}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const tags = resources.filter((r) => r.type === 'aws:autoscaling/tag:Tag');
    expect(tags.map((t) => t.inputs.autoscalingGroupName)).toEqual([asg, asg, asg, asg]);
  });

  test('the same program gets the same names in every run; no two resources of a type share an id', async () => {
    const again = await runProgram(example.program);
    expect(again.resources.map((r) => [r.urn, r.id, r.props])).toEqual(resources.map((r) => [r.urn, r.id, r.props]));
    // (Kubernetes ids are namespace/name as the provider's: unique within a kind.)
    const ids = resources.filter((r) => r.custom).map((r) => `${r.type} ${r.id}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('runPolicies takes the resources as they are', async () => {
    expect(await runPolicies(resources)).toEqual([]);
  });
});
