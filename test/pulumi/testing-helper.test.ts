/**
 * `k8s-windows/pulumi/testing` and the deep Inputs it was written to show: programs shaped like the cases of
 * issue 17 (an image Output resolving to an ltsc2019 tag, the README's Karpenter snippet fed from an `eks.Cluster`),
 * run under mocks with the inputs captured.
 */
import * as pulumi from '@pulumi/pulumi';
import * as awsEks from '@pulumi/aws/eks';
import * as iam from '@pulumi/aws/iam';
import { Service } from '@pulumi/kubernetes/core/v1';
import { Provider } from '@pulumi/kubernetes/provider';
import { parse } from 'yaml';
import { WindowsDaemonSet, WindowsDeployment } from 'k8s-windows/pulumi';
import { SelfManagedWindowsNodePool, WindowsKarpenterNodePool, WindowsNodePool } from 'k8s-windows/pulumi/eks';
import { PulumiProgramError, runProgram, type MockedResource } from 'k8s-windows/pulumi/testing';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const IIS_2022 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const IIS_2019 = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019';

/** The one resource of `type` (and `name`) the run registered. */
function one(resources: readonly MockedResource[], type: string, name?: string): Json {
  const found = resources.filter((r) => r.type === type && (name === undefined || r.name === name));
  expect(found).toHaveLength(1);
  return found[0].inputs;
}

/** The PulumiProgramError a run rejects with; a run that succeeds fails the test. */
async function failureOf(program: () => unknown): Promise<PulumiProgramError> {
  const error = await runProgram(program).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PulumiProgramError);
  return error as PulumiProgramError;
}

describe('runProgram', () => {
  test('returns every resource with its inputs, the stack outputs and the warnings', async () => {
    const run = await runProgram(() => {
      const iis = new WindowsDeployment('iis', {
        metadata: { name: 'iis' },
        replicas: 2,
        podSpec: { containers: [{ name: 'iis', image: pulumi.output(IIS_2022) }] },
      });
      return { labels: iis.podLabels, secret: pulumi.secret('s3cret') };
    });
    expect(run.resources.map((r) => [r.type, r.name, r.custom])).toEqual([
      ['k8s-windows:kubernetes:WindowsDeployment', 'iis', false],
      ['kubernetes:apps/v1:Deployment', 'iis', true],
    ]);
    const deployment = one(run.resources, 'kubernetes:apps/v1:Deployment');
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.template.spec.containers[0].image).toBe(IIS_2022);
    // The project is the repository's Pulumi.yaml (found from the working directory up).
    expect(run.resources[1].urn).toBe('urn:pulumi:stack::k8s-windows-examples::kubernetes:apps/v1:Deployment::iis');
    expect(run.outputs).toEqual({ labels: { 'app.kubernetes.io/name': 'iis' }, secret: 's3cret' });
    expect(run.warnings).toEqual([]);
    expect(run.findings).toEqual([]);
  });

  test('an image Output that resolves to an ltsc2019 tag on a 2022 pool fails the run, naming the arg', async () => {
    const error = await failureOf(() => {
      new WindowsDeployment('iis', {
        replicas: 2,
        podSpec: { containers: [{ name: 'iis', image: pulumi.output(IIS_2019) }] },
        windows: { release: '2022' },
      });
    });
    expect(error.errors).toHaveLength(1);
    expect(pulumi.InputPropertiesError.isInstance(error.errors[0])).toBe(true);
    expect((error.errors[0] as pulumi.InputPropertiesError).errors).toEqual([
      { propertyPath: 'podSpec.containers[0].image', reason: expect.stringContaining('built for Windows Server 2019') },
    ]);
    expect(error.failures.map((f) => [f.property, f.resources])).toEqual([
      ['spec', [{ type: 'kubernetes:apps/v1:Deployment', name: 'iis' }]],
    ]);
    expect(error.message).toBe(
      [
        'The program failed with 1 error:',
        `- kubernetes:apps/v1:Deployment 'iis', input spec: WindowsDeployment 'iis': 1 invalid property`,
        `    podSpec.containers[0].image: ${(error.errors[0] as pulumi.InputPropertiesError).errors[0].reason}`,
      ].join('\n'),
    );
    // The Deployment was never registered: the run says so instead of passing.
    expect(error.resources.map((r) => r.type)).toEqual(['k8s-windows:kubernetes:WindowsDeployment']);
  });

  test('a Service that depends on the refused Deployment does not hang the run (as in the plan examples)', async () => {
    const error = await failureOf(() => {
      const provider = new Provider('k8s', { kubeconfig: 'plan' });
      const iis = new WindowsDeployment(
        'iis',
        { podSpec: { containers: [{ name: 'iis', image: pulumi.output(IIS_2019) }] } },
        { providers: [provider] },
      );
      new Service('iis', { spec: { selector: iis.podLabels, ports: [{ port: 80 }] } }, { provider, dependsOn: [iis] });
    });
    expect(error.message).toContain('podSpec.containers[0].image');
  });

  test('an error thrown while constructing fails the run with the InputPropertiesError itself', async () => {
    const error = await failureOf(() => {
      new WindowsDeployment('iis', {
        podSpec: { containers: [{ name: 'iis', image: IIS_2022, securityContext: { runAsUser: 1000 } }] },
      });
    });
    expect(error.errors).toHaveLength(1);
    expect(error.message).toContain('podSpec.containers[0].securityContext.runAsUser:');
  });

  test('a run after a failed one starts clean', async () => {
    await failureOf(
      () =>
        new WindowsDeployment('bad', {
          podSpec: pulumi.output({ containers: [{ name: 'a', image: IIS_2022, securityContext: { runAsUser: 0 } }] }),
        }),
    );
    const run = await runProgram(
      () => new WindowsDeployment('good', { podSpec: { containers: [{ name: 'a', image: IIS_2022 }] } }),
    );
    expect(run.resources.map((r) => r.name)).toEqual(['good', 'good']);
  });
});

describe('replicas beside podSpec', () => {
  test('replicas goes to spec.replicas; an Output is resolved', async () => {
    const run = await runProgram(() => {
      new WindowsDeployment('iis', {
        replicas: pulumi.output(3),
        podSpec: { containers: [{ name: 'iis', image: IIS_2022 }] },
      });
    });
    expect(one(run.resources, 'kubernetes:apps/v1:Deployment').spec.replicas).toBe(3);
  });

  test('replicas and spec.replicas together, or replicas on a DaemonSet, name the arg to drop', async () => {
    const both = await failureOf(() => {
      new WindowsDeployment('iis', {
        replicas: 2,
        spec: { replicas: 3 },
        podSpec: { containers: [{ name: 'iis', image: IIS_2022 }] },
      });
    });
    expect((both.errors[0] as pulumi.InputPropertiesError).errors).toEqual([
      {
        propertyPath: 'replicas',
        reason:
          'Both replicas (2) and spec.replicas (3) are given. Fix: Keep one: replicas beside podSpec, or spec.replicas.',
      },
    ]);
    const daemonSet = await failureOf(() => {
      new WindowsDaemonSet('agent', {
        replicas: 2,
        podSpec: { containers: [{ name: 'agent', image: IIS_2022 }] },
      } as ConstructorParameters<typeof WindowsDaemonSet>[1]);
    });
    expect((daemonSet.errors[0] as pulumi.InputPropertiesError).errors).toEqual([
      {
        propertyPath: 'replicas',
        reason: 'A DaemonSet has no replicas: it runs one pod per node. Fix: Remove replicas.',
      },
    ]);
  });
});

describe('deep Inputs fed from other resources', () => {
  /** An EKS cluster as the provider would report it. */
  const computed = (type: string, name: string): Record<string, unknown> =>
    type === 'aws:eks/cluster:Cluster'
      ? { name: `${name}-eks`, vpcConfig: { clusterSecurityGroupId: 'sg-0cluster' } }
      : type === 'aws:iam/role:Role'
        ? { name: `${name}-1a2b`, arn: `arn:aws:iam::123456789012:role/${name}` }
        : type === 'aws:eks/nodeGroup:NodeGroup'
          ? { resources: [{ autoscalingGroups: [{ name: `eks-${name}` }] }] }
          : {};

  test("the README's Karpenter snippet: selector terms from the cluster's outputs", async () => {
    const run = await runProgram(
      () => {
        const cluster = new awsEks.Cluster('prod', {
          roleArn: 'arn:aws:iam::123456789012:role/eks',
          vpcConfig: { subnetIds: ['subnet-1'] },
        });
        new WindowsKarpenterNodePool('windows', {
          clusterName: cluster.name,
          subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': cluster.name } }],
          securityGroupSelectorTerms: [{ id: cluster.vpcConfig.clusterSecurityGroupId }],
          tags: { cluster: cluster.name },
        });
      },
      { computed },
    );
    const nodeClass = one(run.resources, 'kubernetes:karpenter.k8s.aws/v1:EC2NodeClass');
    expect(nodeClass.spec.subnetSelectorTerms).toEqual([{ tags: { 'karpenter.sh/discovery': 'prod-eks' } }]);
    expect(nodeClass.spec.securityGroupSelectorTerms).toEqual([{ id: 'sg-0cluster' }]);
    expect(nodeClass.spec.tags).toEqual({ cluster: 'prod-eks' });
    expect(one(run.resources, 'aws:eks/accessEntry:AccessEntry').clusterName).toBe('prod-eks');
  });

  test('a selector term whose id resolves empty is refused once known, naming the term', async () => {
    const error = await runProgram(
      () => {
        new WindowsKarpenterNodePool('windows', {
          clusterName: 'prod',
          subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
          securityGroupSelectorTerms: [{ id: pulumi.output('') }],
        });
      },
      { computed },
    ).then(
      () => new PulumiProgramError([]),
      (e: PulumiProgramError) => e,
    );
    expect((error.errors[0] as pulumi.InputPropertiesError).errors).toEqual([
      { propertyPath: 'securityGroupSelectorTerms[0]', reason: expect.stringContaining('needs tags or an id') },
    ]);
  });

  test('a release a version known only later does not run is refused once known, by the release gate rules', async () => {
    const eks = await failureOf(() => {
      new WindowsNodePool('managed', {
        clusterName: 'prod',
        subnetIds: ['subnet-1'],
        release: '2025',
        kubernetesVersion: pulumi.output('1.34'),
      });
    });
    expect((eks.errors[0] as pulumi.InputPropertiesError).errors).toEqual([
      { propertyPath: 'kubernetesVersion', reason: expect.stringMatching(/1\.35/) },
    ]);
  });

  test('plain selector terms and tags are still checked before anything registers', async () => {
    const error = await failureOf(() => {
      new WindowsKarpenterNodePool('windows', {
        clusterName: 'prod',
        subnetSelectorTerms: [{}],
        securityGroupSelectorTerms: [{ id: 'sg-1' }],
      });
    });
    expect(error.resources).toEqual([]);
    expect(error.message).toContain('subnetSelectorTerms[0]: A selector term needs tags or an id');
  });

  test("aws-auth: the Linux node role's ARN from its iam.Role", async () => {
    const run = await runProgram(
      () => {
        const linuxRole = new iam.Role('linux-nodes', { assumeRolePolicy: '{}' });
        new SelfManagedWindowsNodePool('cm', {
          clusterName: 'prod',
          subnetIds: ['subnet-1'],
          securityGroupIds: ['sg-1'],
          amiId: 'ami-0123456789abcdef0',
          authenticationMode: 'CONFIG_MAP',
          awsAuth: {
            kubernetesProvider: new Provider('k8s', { kubeconfig: 'plan' }),
            otherMapRoles: [
              { rolearn: linuxRole.arn, username: 'system:node:{{EC2PrivateDNSName}}', groups: ['system:nodes'] },
            ],
          },
        });
      },
      { computed },
    );
    const mapRoles = parse(String(one(run.resources, 'kubernetes:core/v1:ConfigMapPatch').data.mapRoles)) as Json[];
    expect(mapRoles.map((m) => m.rolearn)).toEqual([
      'arn:aws:iam::123456789012:role/linux-nodes',
      'arn:aws:iam::123456789012:role/cm-node-role',
    ]);
  });

  test('node pool tags as one Output: merged with the autoscaler tags, listed on the Auto Scaling group', async () => {
    const team = pulumi.output({ team: 'web' });
    const run = await runProgram(
      () => {
        new WindowsNodePool('managed', { clusterName: 'prod', subnetIds: ['subnet-1'], tags: team });
        new SelfManagedWindowsNodePool('self', {
          clusterName: 'prod',
          subnetIds: ['subnet-1'],
          securityGroupIds: ['sg-1'],
          amiId: 'ami-0123456789abcdef0',
          tags: team,
        });
      },
      { computed },
    );
    expect(one(run.resources, 'aws:eks/nodeGroup:NodeGroup').tags).toMatchObject({
      team: 'web',
      'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os': 'windows',
    });
    const asgTags = one(run.resources, 'aws:autoscaling/group:Group').tags as Json[];
    expect(asgTags).toContainEqual({ key: 'team', value: 'web', propagateAtLaunch: true });
    expect(asgTags).toContainEqual({ key: 'kubernetes.io/cluster/prod', value: 'owned', propagateAtLaunch: true });
    expect(one(run.resources, 'aws:ec2/launchTemplate:LaunchTemplate').tags).toEqual({ team: 'web' });
  });

  test("a workload's gMSA credential spec name from another resource", async () => {
    const run = await runProgram(() => {
      new WindowsDeployment('web', {
        podSpec: { containers: [{ name: 'web', image: IIS_2022 }] },
        windows: { gmsa: pulumi.output('webapp01') },
      });
    });
    const pod = one(run.resources, 'kubernetes:apps/v1:Deployment').spec.template.spec;
    expect(pod.securityContext.windowsOptions).toEqual({ gmsaCredentialSpecName: 'webapp01' });
  });
});
