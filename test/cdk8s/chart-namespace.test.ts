/**
 * Issue 17: constructs respect their Chart's namespace. A `WindowsHostProcessDaemonSet` in a Chart with
 * `namespace: 'monitoring'` ran in `windows-system` silently and emitted a cluster-scoped Namespace carrying
 * `namespace: monitoring`.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { WindowsHostProcessDaemonSet } from 'k8s-windows/cdk8s';
import { captureError, objectOf, silenceWarnings } from '../helpers/cdk8s';

const EXPORTER = 'ghcr.io/prometheus-community/windows-exporter:0.29.2';

let emitWarning: jest.SpyInstance;
beforeEach(() => (emitWarning = silenceWarnings()));
afterEach(() => emitWarning.mockRestore());

function monitoringChart(): Chart {
  return new Chart(Testing.app(), 'mon', { namespace: 'monitoring' });
}

test("a HostProcess agent in a namespaced Chart runs in the Chart's namespace, and refuses it unchecked", () => {
  const chart = monitoringChart();
  const ds = new WindowsHostProcessDaemonSet(chart, 'exporter', { containers: [{ image: EXPORTER }] });
  expect(ds.namespaceName).toBe('monitoring');
  const err = captureError(() => Testing.synth(chart));
  expect(err.message).toContain(
    "Namespace 'monitoring' (the Chart's namespace) is not in this app, so its Pod Security level cannot be checked; HostProcess pods need 'privileged'.",
  );
  expect(err.message).toContain("Pass namespace: 'windows-system' to run in a Namespace created at 'privileged'");
});

test("the Chart's privileged Namespace in the app: the agent runs there, nothing else is emitted", () => {
  const chart = monitoringChart();
  new kplus.Namespace(chart, 'ns', {
    metadata: { name: 'monitoring', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } },
  });
  new WindowsHostProcessDaemonSet(chart, 'exporter', { containers: [{ image: EXPORTER }] });
  const manifests = Testing.synth(chart);
  expect(objectOf(manifests, 'DaemonSet').metadata.namespace).toBe('monitoring');
  expect(manifests.filter((m) => m.kind === 'Namespace')).toHaveLength(1);
});

test("the Chart's Namespace at baseline is refused, not raised", () => {
  const chart = monitoringChart();
  new kplus.Namespace(chart, 'ns', { metadata: { name: 'monitoring' } });
  new WindowsHostProcessDaemonSet(chart, 'exporter', { containers: [{ image: EXPORTER }] });
  const err = captureError(() => Testing.synth(chart));
  expect(err.message).toContain(
    "Namespace 'monitoring' (the Chart's namespace) has no pod-security.kubernetes.io/enforce label",
  );
});

test('an explicit windows-system in a namespaced Chart: the created Namespace carries no namespace', () => {
  const chart = monitoringChart();
  new WindowsHostProcessDaemonSet(chart, 'exporter', {
    namespace: 'windows-system',
    namespacePolicy: 'label-privileged',
    containers: [{ image: EXPORTER }],
  });
  const manifests = Testing.synth(chart);
  expect(objectOf(manifests, 'DaemonSet').metadata.namespace).toBe('windows-system');
  expect(objectOf(manifests, 'Namespace').metadata).toEqual({
    name: 'windows-system',
    labels: { 'pod-security.kubernetes.io/enforce': 'privileged' },
  });
});

test("label-privileged on the Chart's namespace emits it cluster-scoped, at privileged", () => {
  const chart = monitoringChart();
  new WindowsHostProcessDaemonSet(chart, 'exporter', {
    namespacePolicy: 'label-privileged',
    containers: [{ image: EXPORTER }],
  });
  const manifests = Testing.synth(chart);
  expect(objectOf(manifests, 'DaemonSet').metadata.namespace).toBe('monitoring');
  expect(objectOf(manifests, 'Namespace').metadata).toEqual({
    name: 'monitoring',
    labels: { 'pod-security.kubernetes.io/enforce': 'privileged' },
  });
});
