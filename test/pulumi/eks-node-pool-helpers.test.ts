// Tests of lib/pulumi/node-pool.ts, the helpers shared by the EKS, AKS and GKE pools.
import fc from 'fast-check';
import { schedulingFor, type Taint } from 'k8s-windows';
import { tolerationFor, WINDOWS_TAINT } from '../../lib/core/target';
import {
  checkNodeLabels,
  checkRelease,
  checkTaints,
  CLOUD_TAINT_EFFECTS,
  DEFAULT_NODE_POOL_SCALING,
  formatWarning,
  fromCloudTaintEffect,
  hasWindowsTaint,
  isLabelValue,
  isQualifiedName,
  nodePoolTarget,
  nodePoolWarnings,
  resolveAutoscaling,
  resolveScaling,
  taintToString,
  toCloudTaintEffect,
} from '../../lib/pulumi/node-pool';

describe('taint effects', () => {
  test('Kubernetes ↔ cloud spelling round-trips', () => {
    expect(toCloudTaintEffect('NoSchedule')).toBe('NO_SCHEDULE');
    expect(toCloudTaintEffect('PreferNoSchedule')).toBe('PREFER_NO_SCHEDULE');
    expect(toCloudTaintEffect('NoExecute')).toBe('NO_EXECUTE');
    for (const e of CLOUD_TAINT_EFFECTS) expect(toCloudTaintEffect(fromCloudTaintEffect(e))).toBe(e);
  });

  test('taintToString', () => {
    expect(taintToString(WINDOWS_TAINT)).toBe('os=windows:NoSchedule');
    expect(taintToString({ key: 'gpu', effect: 'NoExecute' })).toBe('gpu:NoExecute');
  });

  test('hasWindowsTaint needs key, value and effect', () => {
    expect(hasWindowsTaint([WINDOWS_TAINT])).toBe(true);
    expect(hasWindowsTaint([{ ...WINDOWS_TAINT, effect: 'PreferNoSchedule' }])).toBe(false);
    expect(hasWindowsTaint([])).toBe(false);
  });
});

describe('checkTaints', () => {
  test('valid taints pass', () => {
    expect(checkTaints([WINDOWS_TAINT, { key: 'example.com/dedicated', effect: 'NoExecute' }])).toEqual([]);
    expect(checkTaints(undefined)).toEqual([]);
  });

  test('the cloud spelling in a Kubernetes field names the fix', () => {
    expect(checkTaints([{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }])).toEqual([
      {
        path: 'taints[0].effect',
        message: "Taint effect 'NO_SCHEDULE' is the cloud API spelling; this field takes the Kubernetes spelling.",
        fix: "Write 'NoSchedule': it is converted to 'NO_SCHEDULE' for the cloud API.",
      },
    ]);
  });

  test('every problem at once: key, value, effect, duplicate, shape', () => {
    expect(
      checkTaints([
        { key: '', effect: 'NoSchedule' },
        { key: 'os', value: 'not valid!', effect: 'Never' },
        WINDOWS_TAINT,
        { ...WINDOWS_TAINT, value: 'other' },
        'os=windows:NoSchedule',
      ]).map((i) => i.path),
    ).toEqual(['taints[0].key', 'taints[1].value', 'taints[1].effect', 'taints[3]', 'taints[4]']);
    expect(checkTaints('os=windows:NoSchedule', 'spec.taints')).toEqual([
      {
        path: 'spec.taints',
        message: 'Taints must be a list, got "os=windows:NoSchedule".',
        fix: "Write [{ key: 'os', value: 'windows', effect: 'NoSchedule' }].",
      },
    ]);
  });
});

describe('checkNodeLabels', () => {
  test('valid labels pass, including node.kubernetes.io/ and the right build', () => {
    expect(
      checkNodeLabels({ 'example.com/pool': 'iis', 'node.kubernetes.io/lifecycle': 'spot', team: '' }, '2022'),
    ).toEqual([]);
    expect(checkNodeLabels({ 'node.kubernetes.io/windows-build': '10.0.20348' }, '2022')).toEqual([]);
  });

  test('reserved domains, contradictions, bad syntax', () => {
    const issues = checkNodeLabels(
      {
        'kubernetes.io/os': 'linux',
        'node-role.kubernetes.io/worker': 'true',
        'node.kubernetes.io/windows-build': '10.0.17763',
        'x/y/z': 'a',
        ok: 'bad value!',
      },
      '2022',
    );
    expect(issues.map((i) => i.path)).toEqual([
      'labels["kubernetes.io/os"]',
      'labels["node-role.kubernetes.io/worker"]',
      'labels["node.kubernetes.io/windows-build"]',
      'labels["x/y/z"]',
      'labels["ok"]',
    ]);
    expect(issues[1].message).toBe(
      "Label key 'node-role.kubernetes.io/worker' is in a Kubernetes-reserved domain that a kubelet may not set on its node.",
    );
  });

  test('not a map', () => {
    expect(checkNodeLabels(['a'], undefined).map((i) => i.path)).toEqual(['labels']);
  });
});

describe('qualified names and label values', () => {
  test.each(['os', 'example.com/pool', 'a.b-c_d', 'x'.repeat(63)])('%s is a qualified name', (k) =>
    expect(isQualifiedName(k)).toBe(true),
  );
  test.each(['', '-a', 'a-', 'a/b/c', 'Example.com/x', `${'x'.repeat(64)}`, '/x'])('%s is not', (k) =>
    expect(isQualifiedName(k)).toBe(false),
  );
  test('label values', () => {
    expect(['', 'windows', '10.0.20348', 'a_b'].every(isLabelValue)).toBe(true);
    expect(['-a', 'a b', 'x'.repeat(64)].some(isLabelValue)).toBe(false);
  });
});

describe('checkRelease', () => {
  test('LTSC releases pass; SAC and spellings are explained', () => {
    expect(checkRelease('2025')).toEqual([]);
    expect(checkRelease('ltsc2022')).toEqual([
      { path: 'release', message: "Windows release 'ltsc2022' is not a release name.", fix: "Write '2022'." },
    ]);
    expect(checkRelease('2004', 'spec.release')[0].path).toBe('spec.release');
  });
});

describe('resolveScaling', () => {
  test('defaults: aws-cdk min 1, desired 2, max 2', () => {
    expect(resolveScaling(undefined)).toEqual({ scaling: DEFAULT_NODE_POOL_SCALING, issues: [] });
    expect(DEFAULT_NODE_POOL_SCALING).toEqual({ minSize: 1, maxSize: 2, desiredSize: 2 });
  });

  test('partial args fill in around what is given', () => {
    expect(resolveScaling({ maxSize: 10 }).scaling).toEqual({ minSize: 1, maxSize: 10, desiredSize: 2 });
    expect(resolveScaling({ minSize: 4 }).scaling).toEqual({ minSize: 4, maxSize: 4, desiredSize: 4 });
    expect(resolveScaling({ desiredSize: 6 }).scaling).toEqual({ minSize: 1, maxSize: 6, desiredSize: 6 });
    expect(resolveScaling({ minSize: 0, maxSize: 1 }).scaling).toEqual({ minSize: 0, maxSize: 1, desiredSize: 1 });
  });

  test('bad bounds', () => {
    expect(resolveScaling({ minSize: 3, maxSize: 1 }).issues.map((i) => i.path)).toEqual(['scaling.minSize']);
    expect(resolveScaling({ minSize: 0, maxSize: 0, desiredSize: 0 }).issues.map((i) => i.path)).toEqual([
      'scaling.maxSize',
    ]);
    expect(resolveScaling({ minSize: -1, maxSize: 2.5 }, undefined, 'autoscaling').issues.map((i) => i.path)).toEqual([
      'autoscaling.minSize',
      'autoscaling.maxSize',
    ]);
  });

  test('property: no issues exactly when 0 ≤ min ≤ desired ≤ max and max ≥ 1', () => {
    const size = fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined });
    fc.assert(
      fc.property(size, size, size, (minSize, maxSize, desiredSize) => {
        const { scaling, issues } = resolveScaling({ minSize, maxSize, desiredSize });
        const ok =
          scaling.minSize <= scaling.desiredSize && scaling.desiredSize <= scaling.maxSize && scaling.maxSize >= 1;
        expect(issues.length === 0).toBe(ok);
        if (minSize !== undefined) expect(scaling.minSize).toBe(minSize);
        if (maxSize !== undefined) expect(scaling.maxSize).toBe(maxSize);
        if (desiredSize !== undefined) expect(scaling.desiredSize).toBe(desiredSize);
      }),
    );
  });
});

describe('resolveAutoscaling', () => {
  test('on when bounds are given, off otherwise; an explicit value wins', () => {
    expect(resolveAutoscaling({ minSize: 1, maxSize: 3 }, undefined)).toEqual({
      scaling: { minSize: 1, maxSize: 3, desiredSize: 2 },
      autoscaling: true,
      issues: [],
    });
    expect(resolveAutoscaling({ desiredSize: 3 }, undefined).autoscaling).toBe(false);
    expect(resolveAutoscaling(undefined, true).autoscaling).toBe(true);
  });

  test('bounds with autoscaling false are refused', () => {
    expect(resolveAutoscaling({ maxSize: 3 }, false).issues).toEqual([
      {
        path: 'scaling',
        message: 'scaling.minSize/maxSize bound the autoscaler, but autoscaling is false: they would be ignored.',
        fix: 'Set autoscaling: true, or give only scaling.desiredSize.',
      },
    ]);
    expect(resolveAutoscaling({ desiredSize: 3 }, false).issues).toEqual([]);
  });
});

describe('formatWarning', () => {
  test('names the path when the warning has one', () => {
    expect(formatWarning({ ruleId: 'x-y', path: 'release', message: 'Bad.', fix: 'Do this.' })).toBe(
      '[x-y] release: Bad. Fix: Do this.',
    );
  });
});

describe('nodePoolTarget', () => {
  test('pins the release, adds the OS label, keeps the taints; workloads tolerate exactly them', () => {
    const taints: Taint[] = [WINDOWS_TAINT, { key: 'gpu', effect: 'NoExecute' }];
    const target = nodePoolTarget({ release: '2025', labels: { 'example.com/pool': 'a' }, taints });
    expect(target).toEqual({
      release: '2025',
      isolation: 'process',
      labels: {
        'example.com/pool': 'a',
        'kubernetes.io/os': 'windows',
        'node.kubernetes.io/windows-build': '10.0.26100',
      },
      taints,
    });
    expect(schedulingFor(target).tolerations).toEqual(taints.map(tolerationFor));
  });
});

describe('nodePoolWarnings', () => {
  test('none for a tainted 2022 pool; rule ids for untainted and deprecated', () => {
    expect(nodePoolWarnings({ release: '2022', taints: [WINDOWS_TAINT] })).toEqual([]);
    expect(nodePoolWarnings({ release: '2019', taints: [] }).map((w) => w.ruleId)).toEqual([
      'windows-node-pool-untainted',
      'windows-release-deprecated',
    ]);
    expect(formatWarning({ ruleId: 'x-y', message: 'Bad.', fix: 'Do this.' })).toBe('[x-y] Bad. Fix: Do this.');
    expect(formatWarning({ ruleId: 'x-y', message: 'Bad.' })).toBe('[x-y] Bad.');
  });
});
