import Ajv from 'ajv';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { schedulingFor } from 'k8s-windows';
import { tolerationFor } from '../../lib/core/target';
import type * as eksModule from 'k8s-windows/pulumi/eks';
import { inputErrorsOf, mockPulumi, resolved } from './mocks';

const { registered } = mockPulumi((type, name) =>
  type === 'aws:iam/role:Role' ? { arn: `arn:aws:iam::123456789012:role/${name}`, name: `${name}-1a2b` } : {},
);

let eks: typeof eksModule;
beforeAll(async () => {
  eks = await import('k8s-windows/pulumi/eks');
});

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'karpenter');
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const load = (f: string): object => JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8')) as object;
const validateNodePool = ajv.compile(load('karpenter.sh_nodepools.v1.schema.json'));
const validateNodeClass = ajv.compile(load('karpenter.k8s.aws_ec2nodeclasses.v1.schema.json'));

const BASE: eksModule.WindowsKarpenterNodePoolArgs = {
  clusterName: 'prod',
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
  securityGroupSelectorTerms: [{ id: pulumi.output('sg-0cluster') as unknown as string }],
};

async function build(name: string, args: Partial<eksModule.WindowsKarpenterNodePoolArgs> = {}) {
  const pool = new eks.WindowsKarpenterNodePool(name, { ...BASE, ...args });
  await resolved(pool.nodePool.urn);
  await resolved(pool.nodeClass.urn);
  const of = (kind: string) =>
    registered.find((r) => r.type === `kubernetes:karpenter.${kind === 'NodePool' ? 'sh' : 'k8s.aws'}/v1:${kind}`);
  return { pool, nodePool: of('NodePool'), nodeClass: of('EC2NodeClass') };
}

describe('eks.WindowsKarpenterNodePool', () => {
  test('registers the core manifests: schema-valid, the created role, an EC2_WINDOWS access entry', async () => {
    const { pool, nodePool, nodeClass } = await build('win');
    expect(nodeClass?.inputs).toMatchObject({
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'win' },
      spec: {
        amiSelectorTerms: [{ alias: 'windows2022@latest' }],
        role: 'win-node-role-1a2b',
        securityGroupSelectorTerms: [{ id: 'sg-0cluster' }],
      },
    });
    expect(nodePool?.inputs).toMatchObject({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'win' },
    });
    expect(validateNodeClass(nodeClass?.inputs)).toBe(true);
    expect(validateNodePool(nodePool?.inputs)).toBe(true);
    const entry = registered.find((r) => r.type === 'aws:eks/accessEntry:AccessEntry');
    expect(entry?.inputs).toMatchObject({
      clusterName: 'prod',
      type: 'EC2_WINDOWS',
      principalArn: 'arn:aws:iam::123456789012:role/win-node-role',
    });
    expect(await resolved(pool.awsAuthRoleMapping)).toMatchObject({
      groups: expect.arrayContaining(['eks:kube-proxy-windows']),
    });
  });

  test('nodeTarget: workloads tolerate the NodePool taints and select its build', async () => {
    const { pool, nodePool } = await build('w25', { release: '2025', kubernetesVersion: '1.35' });
    const spec = (nodePool?.inputs.spec as { template: { spec: { taints: unknown; requirements: unknown[] } } })
      .template.spec;
    expect(spec.taints).toEqual(pool.nodeTarget.taints);
    expect(schedulingFor(pool.nodeTarget).tolerations).toEqual(pool.nodeTarget.taints.map(tolerationFor));
    expect(spec.requirements).toContainEqual({
      key: 'node.kubernetes.io/windows-build',
      operator: 'In',
      values: ['10.0.26100'],
    });
  });

  test('bad plain args: one InputPropertiesError before anything is registered', async () => {
    const errors = inputErrorsOf(
      () =>
        new eks.WindowsKarpenterNodePool('Bad_Name', {
          ...BASE,
          clusterName: '',
          release: '2025',
          kubernetesVersion: '1.34',
          subnetSelectorTerms: [],
          taints: [],
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'clusterName',
      'kubernetesVersion',
      'name',
      'subnetSelectorTerms',
      'taints',
    ]);
    expect(errors[2].reason).toMatch(/Fix: Set name\./);
    await new Promise((r) => setImmediate(r));
    expect(registered).toEqual([]);
  });

  test('a given node role: no role created, its name in the EC2NodeClass', async () => {
    const { pool, nodeClass } = await build('given', {
      nodeRole: { name: 'KarpenterNodeRole-win', arn: 'arn:aws:iam::1:role/KarpenterNodeRole-win' },
      createAccessEntry: false,
    });
    expect(pool.nodeRole).toBeUndefined();
    expect(pool.accessEntry).toBeUndefined();
    expect((nodeClass?.inputs.spec as { role: string }).role).toBe('KarpenterNodeRole-win');
  });
});
