import * as pulumi from '@pulumi/pulumi';
import { windowsNodeTarget } from 'k8s-windows';
import type * as k8sWindows from 'k8s-windows/pulumi';
import { generatePolicies } from '../../lib/core/policies';
import { clusterFactsCrd } from '../../lib/core/policies/cluster-facts';
import { inputErrorsOf, mockPulumi, resolved } from './mocks';

const { registered } = mockPulumi();

let lib: typeof k8sWindows;
beforeAll(async () => {
  // Load after setMocks so @pulumi/kubernetes registers against the mocked runtime.
  lib = await import('k8s-windows/pulumi');
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every resource the component registered, once all of them are. */
async function settle(p: k8sWindows.WindowsAdmissionPolicies): Promise<void> {
  await resolved(p.urn);
  await Promise.all(Object.values(p.policies).map((r) => resolved(r.urn)));
  if (p.facts) await resolved(p.facts.urn);
}

const TYPE_OF: Record<string, string> = {
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy':
    'kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding':
    'kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/v1/MutatingAdmissionPolicy':
    'kubernetes:admissionregistration.k8s.io/v1:MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding':
    'kubernetes:admissionregistration.k8s.io/v1:MutatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy':
    'kubernetes:admissionregistration.k8s.io/v1beta1:MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding':
    'kubernetes:admissionregistration.k8s.io/v1beta1:MutatingAdmissionPolicyBinding',
};

const inputsOfType = (type: string) => registered.filter((r) => r.type === type).map((r) => r.inputs as Json);

describe('WindowsAdmissionPolicies', () => {
  test('creates every object generatePolicies makes, typed, with its inputs as generated', async () => {
    const p = new lib.WindowsAdmissionPolicies('policies', { mutating: true });
    await settle(p);
    const expected = generatePolicies({ mutating: true }).objects;
    // The mocked engine registers in no fixed order: compared by type and name.
    const key = (type: string, name: unknown) => `${type} ${String(name)}`;
    const created = registered
      .filter((r) => r.type.startsWith('kubernetes:admissionregistration'))
      .map((r) => [key(r.type, r.inputs.metadata && (r.inputs.metadata as Json).name), r.inputs] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    const wanted = expected
      .filter((o) => o.kind !== 'CustomResourceDefinition')
      .map((o) => [key(TYPE_OF[`${o.apiVersion}/${o.kind}`], o.metadata.name), o] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    expect(created).toEqual(wanted);
    expect(registered.find((r) => r.type === 'k8s-windows:k8s:WindowsAdmissionPolicies')?.name).toBe('policies');
    // The -cluster policies read the facts: the CRD is created with them (once), the facts object only with facts.
    expect(p.facts).toBeUndefined();
    expect(p.factsDefinition).toBeDefined();
    const crds = registered.filter((r) => r.type === 'kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition');
    expect(crds.map((r) => r.inputs)).toEqual([expected[0]]);
    expect(Object.keys(p.policies)).toContain('MutatingAdmissionPolicy/k8s-windows-pod-mutate');
  });

  test('mutatingVersion v1beta1 creates the v1beta1 resources', async () => {
    const p = new lib.WindowsAdmissionPolicies('beta', { mutating: true, mutatingVersion: 'v1beta1' });
    await settle(p);
    const maps = inputsOfType('kubernetes:admissionregistration.k8s.io/v1beta1:MutatingAdmissionPolicy');
    expect(maps.map((m) => m.metadata.name).sort()).toEqual([
      'k8s-windows-cronjob-mutate',
      'k8s-windows-cronjob-mutate-cluster',
      'k8s-windows-pod-mutate',
      'k8s-windows-pod-mutate-cluster',
      'k8s-windows-workload-mutate',
      'k8s-windows-workload-mutate-cluster',
    ]);
    expect(inputsOfType('kubernetes:admissionregistration.k8s.io/v1:MutatingAdmissionPolicy')).toEqual([]);
  });

  test('writes the facts from the pools’ node targets (Outputs too) and RuntimeClasses, CRD first', async () => {
    const late = pulumi.output(
      windowsNodeTarget({ release: '2025', taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] }),
    );
    const rc = new lib.WindowsRuntimeClass('rc', { release: '2022' });
    const p = new lib.WindowsAdmissionPolicies('policies', {
      pools: [
        { name: 'win2022', provider: 'eks', nodeTarget: windowsNodeTarget({ release: '2022' }) },
        { name: pulumi.output('win2025'), provider: 'aks', nodeTarget: late },
      ],
      runtimeClasses: [rc],
      clusterFactsName: 'prod',
      mutating: true,
    });
    await settle(p);
    const [crd] = inputsOfType('kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition');
    expect(crd).toEqual(clusterFactsCrd());
    const [facts] = inputsOfType('kubernetes:k8s-windows.io/v1alpha1:WindowsClusterFacts');
    expect(facts).toEqual({
      apiVersion: 'k8s-windows.io/v1alpha1',
      kind: 'WindowsClusterFacts',
      metadata: { name: 'prod' },
      spec: {
        pools: [
          {
            name: 'win2022',
            provider: 'eks',
            release: '2022',
            build: '10.0.20348',
            labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
            taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
          },
          {
            name: 'win2025',
            provider: 'aks',
            release: '2025',
            build: '10.0.26100',
            labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.26100' },
            taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
          },
        ],
        runtimeClasses: [{ name: 'rc', handler: 'runhcs-wcow-process', build: '10.0.20348' }],
      },
    });
    // The facts object waits for its CRD (dependsOn): the mocks see the CRD registered first.
    const order = registered.map((r) => r.type);
    expect(order.indexOf('kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition')).toBeLessThan(
      order.indexOf('kubernetes:k8s-windows.io/v1alpha1:WindowsClusterFacts'),
    );
    const binding = inputsOfType('kubernetes:admissionregistration.k8s.io/v1:MutatingAdmissionPolicyBinding').find(
      (b) => b.metadata.name === 'k8s-windows-pod-mutate-cluster',
    );
    expect(binding?.spec.paramRef).toEqual({ name: 'prod', parameterNotFoundAction: 'Allow' });
  });

  test('a pool component gives its name and provider through its URN', async () => {
    class FakePool extends pulumi.ComponentResource {
      public readonly nodeTarget = windowsNodeTarget({ release: '2022', taints: [] });
      constructor(name: string) {
        super('k8s-windows:eks:WindowsKarpenterNodePool', name, {});
      }
    }
    const p = new lib.WindowsAdmissionPolicies('from-components', { pools: [new FakePool('spot')] });
    await settle(p);
    const [facts] = inputsOfType('kubernetes:k8s-windows.io/v1alpha1:WindowsClusterFacts');
    expect(facts.spec.pools).toEqual([
      {
        name: 'spot',
        provider: 'karpenter',
        release: '2022',
        build: '10.0.20348',
        labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
        taints: [],
      },
    ]);
    expect((await import('../../lib/pulumi/k8s/admission-policies')).WINDOWS_ADMISSION_POLICIES_TYPE).toBe(
      'k8s-windows:k8s:WindowsAdmissionPolicies',
    );
  });

  test('clusterFacts as data', async () => {
    const p = new lib.WindowsAdmissionPolicies('data', {
      clusterFacts: { pools: [{ name: 'np', provider: 'gke', release: '2022' }] },
    });
    await settle(p);
    const [facts] = inputsOfType('kubernetes:k8s-windows.io/v1alpha1:WindowsClusterFacts');
    expect(facts.metadata).toEqual({ name: 'k8s-windows' });
    expect(facts.spec.pools[0]).toMatchObject({ name: 'np', provider: 'gke', build: '10.0.20348' });
  });

  test('refuses bad args, every one at once, before anything registers', () => {
    const errors = inputErrorsOf(
      () =>
        new lib.WindowsAdmissionPolicies('bad', {
          mode: 'enforce' as 'deny',
          mutating: 'yes' as unknown as boolean,
          namePrefix: pulumi.output('x') as unknown as string,
          exclude: [{ name: '' }],
          clusterFacts: { pools: [{ name: 'p', release: '2016' }] },
          pools: [{ name: 'q', nodeTarget: windowsNodeTarget() }, {} as never],
        }),
    );
    expect(errors.map((e) => e.propertyPath)).toEqual([
      'namePrefix',
      'mutating',
      'exclude[0].name',
      'mode',
      'clusterFacts.pools[0].release',
      'clusterFacts',
      'pools[1]',
    ]);
    expect(errors.find((e) => e.propertyPath === 'clusterFacts.pools[0].release')?.reason).toBe(
      "Windows release '2016' is Windows Server 2016 (build 10.0.14393), which Kubernetes does not support as a node. Fix: Use an LTSC release: '2019', '2022', '2025'.",
    );
    expect(registered.filter((r) => r.name === 'bad')).toEqual([]);
  });
});
