import fc from 'fast-check';
import { WINDOWS_RELEASES } from 'k8s-windows';
import { TAINT_EFFECTS, WINDOWS_TAINT } from '../../lib/core/target';
import {
  EKS_WINDOWS_AMI_TYPES,
  eksWindowsAmiType,
  explainEksWindowsAmiType,
  isEksWindowsAmiType,
  looksLikeEksWindowsAmiType,
  parseEksWindowsAmiType,
} from '../../lib/core/cloud/eks-ami-types';
import {
  checkWindowsInstanceTypes,
  isArmInstanceType,
  isBelowWindowsMemoryFloor,
} from '../../lib/core/cloud/eks-instance-types';
import { checkEksNodeGroupInputs } from '../../lib/pulumi/eks/node-group-check';

/** A Windows node group as WindowsNodePool registers it: no issues. */
const GOOD = {
  amiType: 'WINDOWS_CORE_2022_x86_64',
  instanceTypes: ['m5.xlarge'],
  taints: [{ key: 'os', value: 'windows', effect: 'NO_SCHEDULE' }],
  diskSize: 50,
  scalingConfig: { minSize: 0, maxSize: 3, desiredSize: 1 },
  tags: { 'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os': 'windows' },
};

describe('amiType ↔ release', () => {
  test('every release and variant maps to the amiType in the core table, and back', () => {
    expect(EKS_WINDOWS_AMI_TYPES).toEqual([
      'WINDOWS_CORE_2019_x86_64',
      'WINDOWS_FULL_2019_x86_64',
      'WINDOWS_CORE_2022_x86_64',
      'WINDOWS_FULL_2022_x86_64',
      'WINDOWS_CORE_2025_x86_64',
      'WINDOWS_FULL_2025_x86_64',
    ]);
    for (const release of WINDOWS_RELEASES) {
      for (const variant of ['core', 'full'] as const) {
        expect(parseEksWindowsAmiType(eksWindowsAmiType(release, variant))).toEqual({ release, variant });
      }
    }
    expect(eksWindowsAmiType('2022')).toBe('WINDOWS_CORE_2022_x86_64');
  });

  test('only exact spellings are Windows amiTypes', () => {
    expect(isEksWindowsAmiType('WINDOWS_FULL_2025_x86_64')).toBe(true);
    expect(isEksWindowsAmiType('windows_core_2022_x86_64')).toBe(false);
    expect(isEksWindowsAmiType('AL2023_x86_64_STANDARD')).toBe(false);
    expect(parseEksWindowsAmiType(42)).toBeUndefined();
    expect(looksLikeEksWindowsAmiType('windows_core_2022')).toBe(true);
    expect(looksLikeEksWindowsAmiType('BOTTLEROCKET_x86_64')).toBe(false);
  });

  test('misspellings are explained with the fix', () => {
    expect(explainEksWindowsAmiType('WINDOWS_CORE_2022_x86_64')).toBeUndefined();
    expect(explainEksWindowsAmiType('windows_core_2022')).toEqual({
      message:
        "amiType 'windows_core_2022' is not an EKS amiType (EKS spells them exactly, upper case with '_x86_64').",
      fix: "Write 'WINDOWS_CORE_2022_x86_64'.",
    });
    expect(explainEksWindowsAmiType('WINDOWS_CORE_20H2_x86_64')?.message).toMatch(
      /end-of-life Semi-Annual Channel release 20H2/,
    );
    expect(explainEksWindowsAmiType('WINDOWS_NANO')?.fix).toMatch(/^Use one of WINDOWS_CORE_2019_x86_64, /);
  });
});

describe('instance types', () => {
  test.each([
    'm6g.large',
    'm6gd.xlarge',
    'c7g.2xlarge',
    'c6gn.large',
    't4g.medium',
    'a1.large',
    'r8g.large',
    'x2gd.xlarge',
    'im4gn.large',
    'is4gen.large',
    'g5g.xlarge',
    'hpc7g.4xlarge',
  ])('%s is Graviton', (t) => expect(isArmInstanceType(t)).toBe(true));
  test.each([
    'm5.xlarge',
    'm6i.large',
    'c5a.large',
    'g4dn.xlarge',
    'g4ad.xlarge',
    'p4d.24xlarge',
    'inf2.xlarge',
    'r7iz.large',
    'u-6tb1.112xlarge',
    't3.large',
    'z1d.large',
  ])('%s is x86_64', (t) => expect(isArmInstanceType(t)).toBe(false));

  test('list check: syntax, arm64, Mac, empty', () => {
    expect(checkWindowsInstanceTypes(['m5.xlarge', 'm7g.large', 'mac2.metal', 'bogus'])).toEqual([
      {
        path: 'instanceTypes[1]',
        message: "Instance type 'm7g.large' is AWS Graviton (arm64); Windows AMIs are x86_64 only.",
        fix: "Use an x86_64 family, e.g. 'm7i.large'.",
      },
      {
        path: 'instanceTypes[2]',
        message: "Instance type 'mac2.metal' is an EC2 Mac instance; it runs macOS only.",
        fix: "Use an x86_64 family, e.g. 'm5.xlarge'.",
      },
      {
        path: 'instanceTypes[3]',
        message: 'Instance type "bogus" is not an EC2 instance type.',
        fix: "Write 'family.size', e.g. 'm5.xlarge'.",
      },
    ]);
    expect(checkWindowsInstanceTypes([]).map((i) => i.path)).toEqual(['instanceTypes']);
    expect(checkWindowsInstanceTypes('m5.large').map((i) => i.path)).toEqual(['instanceTypes']);
  });

  test('memory floor', () => {
    expect(['t3.medium', 't3.small', 'c5.large', 'c6i.large'].map(isBelowWindowsMemoryFloor)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['t3.large', 'm5.large', 'c5.xlarge', 'r5.large'].map(isBelowWindowsMemoryFloor)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('checkEksNodeGroupInputs (policy pack)', () => {
  test('a node group as WindowsNodePool builds it passes', () => {
    expect(checkEksNodeGroupInputs(GOOD)).toEqual([]);
  });

  test('Linux node groups are not checked', () => {
    expect(checkEksNodeGroupInputs({ amiType: 'AL2023_x86_64_STANDARD', instanceTypes: ['m6g.large'] })).toEqual([]);
    expect(checkEksNodeGroupInputs({})).toEqual([]);
  });

  test('misspelled amiType', () => {
    expect(checkEksNodeGroupInputs({ ...GOOD, amiType: 'WINDOWS_CORE_2022' })).toEqual([
      {
        ruleId: 'eks-windows-ami-type',
        messageId: 'ami-type',
        severity: 'error',
        path: 'amiType',
        message:
          "amiType 'WINDOWS_CORE_2022' is not an EKS amiType (EKS spells them exactly, upper case with '_x86_64').",
        fix: "Write 'WINDOWS_CORE_2022_x86_64'.",
      },
    ]);
  });

  test('Kubernetes taint spelling where EKS wants NO_SCHEDULE, and the Windows taint then missing', () => {
    expect(
      checkEksNodeGroupInputs({ ...GOOD, taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] }),
    ).toEqual([
      {
        ruleId: 'eks-windows-taint-effect',
        messageId: 'effect-spelling',
        severity: 'error',
        path: 'taints[0].effect',
        message: "Taint effect 'NoSchedule' is not an EKS taint effect.",
        fix: "Write 'NO_SCHEDULE' (EKS spelling of NoSchedule).",
      },
      expect.objectContaining({ ruleId: 'eks-windows-taint', severity: 'warning', path: 'taints' }),
    ]);
    expect(
      checkEksNodeGroupInputs({ ...GOOD, taints: [{ key: 'os', value: 'windows', effect: 'SOMETIMES' }] })[0].fix,
    ).toBe('Use one of NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE.');
  });

  test('no taints at all', () => {
    const { taints: _taints, ...noTaints } = GOOD;
    expect(checkEksNodeGroupInputs(noTaints).map((i) => i.ruleId)).toEqual(['eks-windows-taint']);
  });

  test('Graviton instance types', () => {
    expect(checkEksNodeGroupInputs({ ...GOOD, instanceTypes: ['m5.large', 'c7g.large'] })).toEqual([
      expect.objectContaining({ ruleId: 'eks-windows-instance-arch', severity: 'error', path: 'instanceTypes[1]' }),
    ]);
  });

  test('autoscaler tag: a warning when scaling from zero, advice otherwise', () => {
    const { tags: _tags, ...noTags } = GOOD;
    expect(checkEksNodeGroupInputs(noTags)).toEqual([
      {
        ruleId: 'eks-windows-autoscaler-tags',
        messageId: 'os-tag',
        severity: 'warning',
        path: 'tags["k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os"]',
        message:
          'The Windows node group has no tag k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os=windows, so Cluster Autoscaler treats an empty group as Linux and will not scale it up from zero.',
        fix: "Tag the node group's Auto Scaling group with k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os=windows (WindowsNodePool does this).",
      },
    ]);
    expect(
      checkEksNodeGroupInputs({ ...noTags, scalingConfig: { minSize: 1, maxSize: 2, desiredSize: 1 } })[0].severity,
    ).toBe('info');
  });

  test('small disk and deprecated release', () => {
    expect(
      checkEksNodeGroupInputs({ ...GOOD, amiType: 'WINDOWS_FULL_2019_x86_64', diskSize: 20 }, { date: '2026-11-27' }),
    ).toEqual([
      {
        ruleId: 'eks-windows-deprecated-release',
        messageId: 'deprecated',
        severity: 'warning',
        path: 'amiType',
        message:
          "amiType 'WINDOWS_FULL_2019_x86_64' runs Windows Server 2019, which is deprecated: upstream Kubernetes no longer lists it as a node OS (since 2025-12-19). Windows Server 2019 left Microsoft's mainstream support on 2024-01-09; extended support (security fixes) runs until 2029-01-09.",
        fix: "Move to 'WINDOWS_FULL_2022_x86_64' (rebuild images for the new build).",
      },
      expect.objectContaining({ ruleId: 'eks-windows-disk-size', severity: 'error', path: 'diskSize' }),
    ]);
  });

  test('unknown (preview) values are not flagged', () => {
    expect(
      checkEksNodeGroupInputs({
        amiType: 'WINDOWS_CORE_2025_x86_64',
        taints: [undefined],
        tags: { [GOOD_TAG]: 'windows' },
      }),
    ).toEqual([]);
  });

  test('property: every taint effect in Kubernetes spelling is flagged with its EKS spelling', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TAINT_EFFECTS), fc.constantFrom(...EKS_WINDOWS_AMI_TYPES), (effect, amiType) => {
        const issues = checkEksNodeGroupInputs({ ...GOOD, amiType, taints: [{ ...WINDOWS_TAINT, effect }] });
        const effectIssue = issues.find((i) => i.ruleId === 'eks-windows-taint-effect');
        expect(effectIssue?.fix).toMatch(/^Write '(NO_SCHEDULE|PREFER_NO_SCHEDULE|NO_EXECUTE)'/);
      }),
    );
  });
});

const GOOD_TAG = 'k8s.io/cluster-autoscaler/node-template/label/kubernetes.io/os';

describe('checkEksNodeGroupInputs: release ↔ Kubernetes version', () => {
  test('a Windows Server 2025 node group on 1.34 is an error; on 1.35 fine; unknown versions skipped', () => {
    const group = { ...GOOD, amiType: 'WINDOWS_CORE_2025_x86_64' };
    expect(checkEksNodeGroupInputs({ ...group, version: '1.34' })).toEqual([
      expect.objectContaining({ ruleId: 'eks-windows-kubernetes-version', severity: 'error', path: 'version' }),
    ]);
    expect(checkEksNodeGroupInputs({ ...group, version: '1.35' })).toEqual([]);
    expect(checkEksNodeGroupInputs({ ...group, version: { unknown: true } })).toEqual([]);
  });
});
