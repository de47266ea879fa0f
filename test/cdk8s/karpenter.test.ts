import { Chart, Testing } from 'cdk8s';
import { WindowsValidationError, windowsKarpenterManifests } from 'k8s-windows';
import { WindowsDeployment, WindowsKarpenterNodePool } from 'k8s-windows/cdk8s';

const PROPS = {
  role: 'KarpenterNodeRole-windows',
  subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
  securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
};

test('synthesizes exactly the core manifests, cluster-scoped, EC2NodeClass first', () => {
  const chart = new Chart(Testing.app(), 'c', { namespace: 'apps' });
  new WindowsKarpenterNodePool(chart, 'windows', { ...PROPS, release: '2025' });
  const out = Testing.synth(chart);
  const core = windowsKarpenterManifests({ ...PROPS, release: '2025', name: 'windows' });
  expect(out).toEqual([core.nodeClass, core.nodePool]);
});

test('workloads built from nodeTarget tolerate the NodePool taints', () => {
  const chart = Testing.chart();
  const pool = new WindowsKarpenterNodePool(chart, 'win', { ...PROPS, name: 'windows-2022' });
  new WindowsDeployment(chart, 'web', {
    containers: [{ image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }],
    windows: { target: pool.nodeTarget },
  });
  const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment');
  expect(deployment.spec.template.spec.tolerations).toEqual([
    { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
  ]);
  expect(deployment.spec.template.spec.nodeSelector).toMatchObject({
    'kubernetes.io/os': 'windows',
    'node.kubernetes.io/windows-build': '10.0.20348',
  });
});

test('bad props throw WindowsValidationError naming them', () => {
  expect(() => new WindowsKarpenterNodePool(Testing.chart(), 'Bad', { ...PROPS, subnetSelectorTerms: [] })).toThrow(
    WindowsValidationError,
  );
});
