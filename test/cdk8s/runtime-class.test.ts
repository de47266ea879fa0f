import { Chart, Testing } from 'cdk8s';
import { WindowsValidationError, windowsNodeTarget } from 'k8s-windows';
import { WindowsRuntimeClass } from 'k8s-windows/cdk8s';
import { defaultRuntimeClassName } from '../../lib/cdk8s/runtime-class';
import { windowsRuntimeHandler } from '../../lib/core/releases';
import { objectOf } from '../helpers/cdk8s';

test('the default is a process-isolated Windows Server 2022 RuntimeClass', () => {
  const chart = Testing.chart();
  const rc = new WindowsRuntimeClass(chart, 'rc');
  expect(objectOf(Testing.synth(chart), 'RuntimeClass')).toEqual({
    apiVersion: 'node.k8s.io/v1',
    kind: 'RuntimeClass',
    metadata: { name: 'windows-2022' },
    handler: 'runhcs-wcow-process',
    scheduling: {
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      tolerations: [{ effect: 'NoSchedule', key: 'os', operator: 'Equal', value: 'windows' }],
    },
  });
  expect(rc.name).toBe('windows-2022');
  expect(rc.nodeTarget).toEqual({ ...windowsNodeTarget({ release: '2022' }), runtimeClassName: 'windows-2022' });
});

test('Hyper-V uses the hypervisor handler and its own name', () => {
  const chart = Testing.chart();
  const rc = new WindowsRuntimeClass(chart, 'rc', { release: '2025', isolation: 'hyperv' });
  const obj = objectOf(Testing.synth(chart), 'RuntimeClass');
  expect(obj.metadata.name).toBe('windows-2025-hyperv');
  expect(obj.handler).toBe('runhcs-wcow-hypervisor');
  expect(obj.scheduling.nodeSelector['node.kubernetes.io/windows-build']).toBe('10.0.26100');
  expect(rc.nodeTarget.isolation).toBe('hyperv');
});

test("a node pool's target gives the tolerations, and the chart namespace is not emitted", () => {
  const chart = new Chart(Testing.app(), 'c', { namespace: 'apps' });
  const target = windowsNodeTarget({ release: '2019', taints: [{ key: 'win', effect: 'NoExecute' }] });
  new WindowsRuntimeClass(chart, 'rc', { target, metadata: { name: 'ws2019' } });
  const obj = objectOf(Testing.synth(chart), 'RuntimeClass');
  expect(obj.metadata).toEqual({ name: 'ws2019' });
  expect(obj.scheduling.tolerations).toEqual([{ key: 'win', operator: 'Exists', effect: 'NoExecute' }]);
});

test('an unpinned target gives the name windows', () => {
  expect(defaultRuntimeClassName({ isolation: 'process' })).toBe('windows');
  expect(defaultRuntimeClassName({ isolation: 'hyperv', release: '2019' })).toBe('windows-2019-hyperv');
  expect(windowsRuntimeHandler('process')).toBe('runhcs-wcow-process');
});

test('bad props are all reported at once', () => {
  const chart = Testing.chart();
  let err: unknown;
  try {
    new WindowsRuntimeClass(chart, 'rc', {
      target: windowsNodeTarget({ release: '2022', runtimeClassName: 'other' }),
      release: '2019',
      isolation: 'hyperv',
      metadata: { name: 'Windows_2022' },
    });
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(WindowsValidationError);
  expect((err as WindowsValidationError).issues.map((i) => i.path)).toEqual([
    'release',
    'isolation',
    'metadata.name',
    'target.runtimeClassName',
  ]);
  expect((err as WindowsValidationError).message).toMatch(/^test\/rc: 4 Windows validation problems/);
});

test('a SAC release is refused with the fix', () => {
  expect(() => new WindowsRuntimeClass(Testing.chart(), 'rc', { release: '1909' as never })).toThrow(
    /Semi-Annual Channel.*Fix: Use an LTSC release/s,
  );
});
