import Ajv from 'ajv';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import {
  karpenterWindowsAmiAlias,
  schedulingFor,
  tolerationFor,
  windowsKarpenterManifests,
  WindowsValidationError,
  WINDOWS_RELEASES,
  type WindowsKarpenterOptions,
} from '../../lib/core';
import { propertyParameters } from '../helpers/property';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'karpenter');
const schema = (file: string): object => JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as object;
// Kubernetes structural schemas carry x-kubernetes-* keywords and formats ajv does not know: not strict.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const validateNodePool = ajv.compile(schema('karpenter.sh_nodepools.v1.schema.json'));
const validateNodeClass = ajv.compile(schema('karpenter.k8s.aws_ec2nodeclasses.v1.schema.json'));

const BASE: WindowsKarpenterOptions = {
  name: 'windows',
  role: 'KarpenterNodeRole-windows',
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
  securityGroupSelectorTerms: [{ id: 'sg-0123456789abcdef0' }],
};

function expectValid(manifests: ReturnType<typeof windowsKarpenterManifests>): void {
  expect(validateNodePool(manifests.nodePool)).toBe(true);
  expect(validateNodePool.errors ?? []).toEqual([]);
  expect(validateNodeClass(manifests.nodeClass)).toBe(true);
  expect(validateNodeClass.errors ?? []).toEqual([]);
}

describe('windowsKarpenterManifests', () => {
  test('defaults: NodePool and EC2NodeClass for Windows Server 2022, valid against the published CRD schemas', () => {
    const m = windowsKarpenterManifests(BASE);
    expectValid(m);
    expect(m.nodePool).toEqual({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'windows' },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'windows' },
            requirements: [
              { key: 'kubernetes.io/os', operator: 'In', values: ['windows'] },
              { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
              { key: 'node.kubernetes.io/windows-build', operator: 'In', values: ['10.0.20348'] },
              { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
              { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm', 'r'] },
              { key: 'karpenter.k8s.aws/instance-generation', operator: 'Gt', values: ['4'] },
              {
                key: 'karpenter.k8s.aws/instance-family',
                operator: 'NotIn',
                values: ['c3', 'c4', 'd2', 'i2', 'm4', 'm6a', 'r3'],
              },
            ],
            taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
            expireAfter: '720h',
          },
        },
        disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '5m' },
      },
    });
    expect(m.nodeClass).toEqual({
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'windows' },
      spec: {
        amiSelectorTerms: [{ alias: 'windows2022@latest' }],
        role: 'KarpenterNodeRole-windows',
        subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
        securityGroupSelectorTerms: [{ id: 'sg-0123456789abcdef0' }],
        blockDeviceMappings: [
          {
            deviceName: '/dev/sda1',
            rootVolume: true,
            ebs: { volumeSize: '50Gi', volumeType: 'gp3', encrypted: true, deleteOnTermination: true },
          },
        ],
        metadataOptions: { httpEndpoint: 'enabled', httpTokens: 'required', httpPutResponseHopLimit: 2 },
      },
    });
  });

  test('the alias follows the CRD rules: family@version, a Windows family, version latest only', () => {
    const aliasRule = /^[a-zA-Z0-9]+@.+$/;
    for (const release of WINDOWS_RELEASES) {
      const alias = karpenterWindowsAmiAlias(release);
      expect(alias).toMatch(aliasRule);
      expect(alias.length).toBeLessThanOrEqual(30);
      expect(alias.split('@')).toEqual([`windows${release}`, 'latest']);
      const m = windowsKarpenterManifests({ ...BASE, release });
      expectValid(m);
      expect(m.nodeClass.spec.amiSelectorTerms).toEqual([{ alias }]);
    }
  });

  test('nodeTarget: workloads tolerate exactly the NodePool taints and select its labels and build', () => {
    const m = windowsKarpenterManifests({ ...BASE, release: '2025', labels: { 'example.com/pool': 'iis' } });
    const scheduling = schedulingFor(m.nodeTarget);
    const spec = (m.nodePool.spec.template as { spec: { taints: unknown } }).spec;
    expect(scheduling.tolerations).toEqual(m.nodeTarget.taints.map(tolerationFor));
    expect(spec.taints).toEqual(m.nodeTarget.taints);
    expect(scheduling.nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.26100',
      'example.com/pool': 'iis',
    });
    expect(m.nodePool.spec.template).toMatchObject({ metadata: { labels: { 'example.com/pool': 'iis' } } });
  });

  test('options pass through and stay schema-valid', () => {
    const m = windowsKarpenterManifests({
      ...BASE,
      capacityTypes: ['spot', 'on-demand'],
      instanceCategories: ['m'],
      minInstanceGeneration: 6,
      requirements: [{ key: 'karpenter.k8s.aws/instance-size', operator: 'NotIn', values: ['large'] }],
      limits: { cpu: '64', memory: '256Gi' },
      diskSize: 100,
      expireAfter: 'Never',
      disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '30m' },
      tags: { team: 'windows' },
    });
    expectValid(m);
    expect(m.nodePool.spec.limits).toEqual({ cpu: '64', memory: '256Gi' });
    expect(m.nodeClass.spec.tags).toEqual({ team: 'windows' });
  });

  test('every bad option at once', () => {
    try {
      windowsKarpenterManifests({
        name: 'Windows_Pool',
        role: 'arn:aws:iam::1:role/x',
        subnetSelectorTerms: [],
        securityGroupSelectorTerms: [{ tags: { a: 'b' }, id: 'sg-1' }],
        taints: [{ key: 'os', value: 'windows', effect: 'PreferNoSchedule' }],
        labels: { 'karpenter.sh/nodepool': 'x' },
        requirements: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }],
        diskSize: 20,
        expireAfter: '30d',
      });
      throw new Error('expected an error');
    } catch (e) {
      expect(e).toBeInstanceOf(WindowsValidationError);
      expect((e as WindowsValidationError).issues.map((i) => i.path)).toEqual([
        'name',
        'role',
        'subnetSelectorTerms',
        'securityGroupSelectorTerms[0]',
        'labels["karpenter.sh/nodepool"]',
        'taints',
        'requirements[0].key',
        'diskSize',
        'expireAfter',
      ]);
    }
  });

  test('property: any valid combination is schema-valid and Windows-only', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...WINDOWS_RELEASES),
        fc.subarray(['on-demand', 'spot', 'reserved'] as const, { minLength: 1 }),
        fc.integer({ min: 30, max: 2000 }),
        fc.constantFrom('WhenEmpty', 'WhenEmptyOrUnderutilized') as fc.Arbitrary<
          'WhenEmpty' | 'WhenEmptyOrUnderutilized'
        >,
        (release, capacityTypes, diskSize, consolidationPolicy) => {
          const m = windowsKarpenterManifests({
            ...BASE,
            release,
            capacityTypes,
            diskSize,
            disruption: { consolidationPolicy },
          });
          expect(validateNodePool(m.nodePool)).toBe(true);
          expect(validateNodeClass(m.nodeClass)).toBe(true);
          const reqs = (m.nodePool.spec.template as { spec: { requirements: { key: string; values?: string[] }[] } })
            .spec.requirements;
          expect(reqs.find((r) => r.key === 'kubernetes.io/os')?.values).toEqual(['windows']);
        },
      ),
      propertyParameters(50),
    );
  });

  test('the schemas do refuse bad manifests (the check is not vacuous)', () => {
    const m = windowsKarpenterManifests(BASE);
    expect(validateNodeClass({ ...m.nodeClass, spec: { ...m.nodeClass.spec, subnetSelectorTerms: undefined } })).toBe(
      false,
    );
    const badTaint = JSON.parse(JSON.stringify(m.nodePool)) as { spec: { template: { spec: { taints: unknown[] } } } };
    badTaint.spec.template.spec.taints = [{ key: 'os', effect: 'NO_SCHEDULE' }];
    expect(validateNodePool(badTaint)).toBe(false);
  });
});
