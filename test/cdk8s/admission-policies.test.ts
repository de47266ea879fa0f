import { Chart, Testing } from 'cdk8s';
import { windowsNodeTarget } from 'k8s-windows';
import {
  WindowsAdmissionPolicies,
  WindowsKarpenterNodePool,
  WindowsRuntimeClass,
  type WindowsAdmissionPoliciesProps,
} from 'k8s-windows/cdk8s';
import { generatePolicies } from '../../lib/core/policies';
import { captureError, type Manifest } from '../helpers/cdk8s';

const KARPENTER = {
  role: 'KarpenterNodeRole-prod',
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
  securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
};

function synth(props?: WindowsAdmissionPoliciesProps, namespace?: string): Manifest[] {
  const chart = new Chart(Testing.app(), 'test', namespace === undefined ? {} : { namespace });
  new WindowsAdmissionPolicies(chart, 'policies', props);
  return Testing.synth(chart);
}

const ids = (objects: readonly Manifest[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`);

describe('WindowsAdmissionPolicies', () => {
  test('defaults: the facts CRD, then the validating policies and bindings generatePolicies makes, as they are', () => {
    const out = synth();
    expect(out).toEqual(generatePolicies().objects);
    // The CRD goes with the -cluster policies, so a facts object can be applied later; no facts object is written.
    expect(ids(out)[0]).toBe('CustomResourceDefinition/windowsclusterfacts.k8s-windows.io');
    expect(out.slice(1).every((o) => o.apiVersion === 'admissionregistration.k8s.io/v1')).toBe(true);
    expect(out.some((o) => o.kind === 'MutatingAdmissionPolicy' || o.kind === 'WindowsClusterFacts')).toBe(false);
  });

  test('every object is cluster-scoped: the chart namespace is left off', () => {
    const out = synth({ mutating: true }, 'apps');
    expect(out.length).toBeGreaterThan(0);
    expect(out.filter((o) => o.metadata.namespace !== undefined)).toEqual([]);
  });

  test('mode, mutating and mutatingVersion reach the objects', () => {
    const out = synth({ mode: 'warn', mutating: true, mutatingVersion: 'v1beta1' });
    expect(out).toEqual(generatePolicies({ mode: 'warn', mutating: true, mutatingVersion: 'v1beta1' }).objects);
    const map = out.find((o) => o.kind === 'MutatingAdmissionPolicy' && o.metadata.name === 'k8s-windows-pod-mutate');
    expect(map?.apiVersion).toBe('admissionregistration.k8s.io/v1beta1');
    expect(map?.spec.reinvocationPolicy).toBe('IfNeeded');
    const deny = out.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding' && o.metadata.name.endsWith('-deny'));
    expect(deny?.spec.validationActions).toEqual(['Warn', 'Audit']);
  });

  test('the facts from the app’s Karpenter pools and RuntimeClasses: CRD first, then the facts object', () => {
    const chart = Testing.chart();
    const pool = new WindowsKarpenterNodePool(chart, 'win', { ...KARPENTER, name: 'windows-2022', release: '2022' });
    const rc = new WindowsRuntimeClass(chart, 'rc', { target: pool.nodeTarget });
    const policies = new WindowsAdmissionPolicies(chart, 'policies', {
      pools: [pool, { name: 'win2025', provider: 'eks', nodeTarget: windowsNodeTarget({ release: '2025' }) }],
      runtimeClasses: [rc],
      mutating: true,
    });
    const out = Testing.synth(chart);
    const mine = out.filter((o) => !['EC2NodeClass', 'NodePool', 'RuntimeClass'].includes(o.kind));
    expect(ids(mine).slice(0, 2)).toEqual([
      'CustomResourceDefinition/windowsclusterfacts.k8s-windows.io',
      'WindowsClusterFacts/k8s-windows',
    ]);
    const facts = mine[1];
    expect(facts.apiVersion).toBe('k8s-windows.io/v1alpha1');
    expect(facts.spec).toEqual({
      pools: [
        {
          name: 'windows-2022',
          provider: 'karpenter',
          release: '2022',
          build: '10.0.20348',
          labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
          taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
        },
        {
          name: 'win2025',
          provider: 'eks',
          release: '2025',
          build: '10.0.26100',
          labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.26100' },
          taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
        },
      ],
      runtimeClasses: [{ name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' }],
    });
    expect(policies.clusterFacts?.pools?.map((p) => p.name)).toEqual(['windows-2022', 'win2025']);
    // Without facts, the set still starts with the CRD (its -cluster policies read the facts).
    expect(mine.slice(2)).toEqual(generatePolicies({ mutating: true }).objects.slice(1));
  });

  test('clusterFacts as data, and the other options, as generatePolicies takes them', () => {
    const props: WindowsAdmissionPoliciesProps = {
      clusterFacts: { pools: [{ name: 'np', provider: 'aks', release: '2025', taints: [] }] },
      cloud: 'aks',
      settings: { 'windows-os-unset': 'off' },
      systemNamespaces: ['kube-system', 'flux-system'],
      exclude: [{ namespace: 'legacy', name: 'web' }],
      namePrefix: 'acme',
      clusterFactsName: 'prod',
      mutating: true,
    };
    const out = synth(props);
    expect(out).toEqual(generatePolicies(props).objects);
    expect(ids(out).slice(0, 2)).toEqual([
      'CustomResourceDefinition/windowsclusterfacts.k8s-windows.io',
      'WindowsClusterFacts/prod',
    ]);
    const binding = out.find(
      (o) => o.kind === 'MutatingAdmissionPolicyBinding' && o.metadata.name === 'acme-pod-mutate-cluster',
    );
    expect(binding?.spec.paramRef).toEqual({ name: 'prod', parameterNotFoundAction: 'Allow' });
  });

  test('refuses bad props, every one at once, and leaves the tree', () => {
    const chart = Testing.chart();
    const err = captureError(
      () =>
        new WindowsAdmissionPolicies(chart, 'policies', {
          mode: 'enforce' as 'deny',
          mutatingVersion: 'v1alpha1' as 'v1',
          cloud: 'azure' as 'aks',
          settings: { 'windows-os-unset': 'loud' as 'off' },
          namePrefix: 'Acme',
          clusterFacts: {
            pools: [
              {
                name: 'p',
                provider: 'eks',
                build: '10.0.19041',
                taints: [{ key: 'os', effect: 'NO_SCHEDULE' as 'NoSchedule' }],
              },
            ],
          },
          pools: [{ name: 'q', nodeTarget: windowsNodeTarget() }],
        }),
    );
    expect(err.issues.map((i) => i.path)).toEqual([
      'cloud',
      'mode',
      'mutatingVersion',
      'settings.windows-os-unset',
      'namePrefix',
      'clusterFacts.pools[0].build',
      'clusterFacts.pools[0].taints[0].effect',
      'clusterFacts',
    ]);
    expect(err.issues.find((i) => i.path === 'clusterFacts.pools[0].taints[0].effect')?.fix).toBe(
      "Write 'NoSchedule' (the Kubernetes spelling).",
    );
    expect(chart.node.tryFindChild('policies')).toBeUndefined();
  });

  test('a pool target that makes bad facts is named by its prop path', () => {
    const err = captureError(
      () =>
        new WindowsAdmissionPolicies(Testing.chart(), 'p', {
          pools: [
            { name: 'a', nodeTarget: windowsNodeTarget() },
            { name: 'a', nodeTarget: windowsNodeTarget() },
          ],
        }),
    );
    expect(err.issues.map((i) => [i.path, i.message])).toEqual([
      ['pools[1].name', "The pool name 'a' is used by the pool at index 0 already."],
    ]);
  });
});
