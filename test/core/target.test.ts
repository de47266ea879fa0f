import { WindowsValidationError, schedulingFor, windowsNodeTarget } from 'k8s-windows';
import { taintLiteral, tolerates, WINDOWS_TAINT } from '../../lib/core/target';

describe('windowsNodeTarget', () => {
  test('defaults: os label, os=windows:NoSchedule, process isolation, not pinned', () => {
    expect(windowsNodeTarget()).toEqual({
      isolation: 'process',
      labels: { 'kubernetes.io/os': 'windows' },
      taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
    });
  });

  test('pinning a release adds the build label', () => {
    const t = windowsNodeTarget({ release: '2019', labels: { pool: 'win' }, runtimeClassName: 'windows-2019' });
    expect(t.labels).toEqual({
      pool: 'win',
      'kubernetes.io/os': 'windows',
      'node.kubernetes.io/windows-build': '10.0.17763',
    });
    expect(t.runtimeClassName).toBe('windows-2019');
  });

  test('reports every bad option at once', () => {
    let error: unknown;
    try {
      windowsNodeTarget({
        release: '1909' as never,
        isolation: 'vm' as never,
        taints: [{ key: '', effect: 'NO_SCHEDULE' as never }],
        labels: { 'kubernetes.io/os': 'linux' },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WindowsValidationError);
    expect((error as WindowsValidationError).issues.map((i) => i.path)).toEqual([
      'release',
      'isolation',
      'taints[0].key',
      'taints[0].effect',
      'labels["kubernetes.io/os"]',
    ]);
  });
});

describe('schedulingFor', () => {
  test('nodeSelector always has the os label; build label when pinned; tolerations match taints', () => {
    const target = windowsNodeTarget({
      release: '2022',
      taints: [WINDOWS_TAINT, { key: 'dedicated', effect: 'NoExecute' }],
    });
    const s = schedulingFor(target);
    expect(s.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' });
    expect(s.tolerations).toEqual([
      { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' },
    ]);
    target.taints.forEach((taint, i) => expect(tolerates(s.tolerations[i], taint)).toBe(true));
  });

  test('tolerates follows the scheduler', () => {
    expect(tolerates({ operator: 'Exists' }, WINDOWS_TAINT)).toBe(true);
    expect(tolerates({ key: 'os', operator: 'Equal', value: 'linux' }, WINDOWS_TAINT)).toBe(false);
    expect(tolerates({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoExecute' }, WINDOWS_TAINT)).toBe(
      false,
    );
  });
});

test('taintLiteral writes a taint as code, in either effect spelling', () => {
  expect(taintLiteral(WINDOWS_TAINT)).toBe("{ key: 'os', value: 'windows', effect: 'NoSchedule' }");
  expect(taintLiteral(WINDOWS_TAINT, 'NO_SCHEDULE')).toBe("{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }");
  expect(taintLiteral({ key: 'dedicated', effect: 'NoExecute' })).toBe("{ key: 'dedicated', effect: 'NoExecute' }");
});
