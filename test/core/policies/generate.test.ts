/**
 * generatePolicies: the objects, their grouping by shape and action class, the modes, the settings, suppressions,
 * exclusions, the cluster facts and the options' errors; the `-cluster` validations run with a facts object.
 */
import { parse } from '@bufbuild/cel';
import { WindowsValidationError } from 'k8s-windows';
import { generatePolicies, readClusterFacts, type PolicyObject } from '../../../lib/core/policies';
import { celRules } from '../../../lib/core/policies/validating';
import { evaluatePolicies } from '../../helpers/vap-eval';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reading generated objects field by field
type Spec = Record<string, any>;
const spec = (o: PolicyObject) => o.spec as Spec;
const names = (objects: readonly PolicyObject[], kind: string) =>
  objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);

const windowsPod = (podSpec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'web' }) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata,
  spec: {
    os: { name: 'windows' },
    nodeSelector: { 'kubernetes.io/os': 'windows' },
    containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }],
    ...podSpec,
  },
});

const FACTS = {
  pools: [
    {
      name: 'win2022',
      provider: 'eks' as const,
      release: '2022',
      build: '10.0.20348',
      taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' as const }],
    },
  ],
  runtimeClasses: [{ name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' }],
};

describe('the default set', () => {
  const objects = generatePolicies().objects;

  test('the facts CRD, one policy per shape and action class, then their bindings', () => {
    expect(names(objects, 'ValidatingAdmissionPolicy')).toEqual([
      'k8s-windows-pod-deny',
      'k8s-windows-pod-deny-cluster',
      'k8s-windows-pod-warn',
      'k8s-windows-pod-warn-cluster',
      'k8s-windows-workload-deny',
      'k8s-windows-workload-deny-cluster',
      'k8s-windows-workload-warn',
      'k8s-windows-workload-warn-cluster',
      'k8s-windows-cronjob-deny',
      'k8s-windows-cronjob-deny-cluster',
      'k8s-windows-cronjob-warn',
      'k8s-windows-cronjob-warn-cluster',
      'k8s-windows-runtimeclass-deny',
    ]);
    expect(names(objects, 'ValidatingAdmissionPolicyBinding')).toEqual(names(objects, 'ValidatingAdmissionPolicy'));
    expect(objects.map((o) => o.kind)).toEqual([
      // The -cluster policies read the facts: their CRD comes first, so a facts object can be applied later.
      'CustomResourceDefinition',
      ...Array(13).fill('ValidatingAdmissionPolicy'),
      ...Array(13).fill('ValidatingAdmissionPolicyBinding'),
    ]);
    expect(new Set(objects.map((o) => o.apiVersion))).toEqual(
      new Set(['apiextensions.k8s.io/v1', 'admissionregistration.k8s.io/v1']),
    );
    expect(objects.some((o) => o.kind === 'WindowsClusterFacts')).toBe(false);
  });

  test('a workload policy matches the workload kinds on CREATE and UPDATE, outside system and opted-out namespaces', () => {
    const workload = spec(objects.find((o) => o.metadata.name === 'k8s-windows-workload-deny')!);
    expect(workload.failurePolicy).toBe('Ignore');
    expect(workload.matchConstraints).toEqual({
      resourceRules: [
        {
          apiGroups: ['apps'],
          apiVersions: ['v1'],
          operations: ['CREATE', 'UPDATE'],
          resources: ['deployments', 'statefulsets', 'daemonsets', 'replicasets'],
        },
        { apiGroups: ['batch'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['jobs'] },
        {
          apiGroups: [''],
          apiVersions: ['v1'],
          operations: ['CREATE', 'UPDATE'],
          resources: ['replicationcontrollers'],
        },
      ],
      namespaceSelector: {
        matchExpressions: [
          {
            key: 'kubernetes.io/metadata.name',
            operator: 'NotIn',
            values: ['kube-system', 'kube-public', 'kube-node-lease'],
          },
          { key: 'k8s-windows.io/policies', operator: 'NotIn', values: ['disabled'] },
        ],
      },
      objectSelector: {
        matchExpressions: [{ key: 'k8s-windows.io/policies', operator: 'NotIn', values: ['disabled'] }],
      },
    });
    expect(workload.variables.slice(0, 2)).toEqual([
      { name: 'spec', expression: 'object.spec.template.spec' },
      {
        name: 'podMeta',
        expression:
          'has(object.spec) && has(object.spec.template) && has(object.spec.template.metadata) ? dyn(object.spec.template.metadata) : dyn({})',
      },
    ]);
  });

  test('the cluster policies read the facts through a paramRef that allows a missing object', () => {
    const policy = spec(objects.find((o) => o.metadata.name === 'k8s-windows-pod-deny-cluster')!);
    expect(policy.paramKind).toEqual({ apiVersion: 'k8s-windows.io/v1alpha1', kind: 'WindowsClusterFacts' });
    const binding = spec(
      objects.find((o) => o.kind.endsWith('Binding') && o.metadata.name === 'k8s-windows-pod-deny-cluster')!,
    );
    expect(binding).toEqual({
      policyName: 'k8s-windows-pod-deny-cluster',
      validationActions: ['Deny'],
      paramRef: { name: 'k8s-windows', parameterNotFoundAction: 'Allow' },
    });
  });

  test('every expression parses, every message leads with its rule id, every variable is declared once', () => {
    for (const o of objects.filter((x) => x.kind === 'ValidatingAdmissionPolicy')) {
      const s = spec(o);
      const variables = s.variables.map((v: { name: string }) => v.name);
      expect(new Set(variables).size).toBe(variables.length);
      for (const v of s.variables) expect(() => parse(v.expression)).not.toThrow();
      // As the API server compiles them: a variable reads only those declared before it; a validation, any.
      const reads = (expression: string) => [...expression.matchAll(/variables\.(\w+)/g)].map((m) => m[1]);
      s.variables.forEach((v: { name: string; expression: string }, i: number) => {
        expect({ [v.name]: reads(v.expression).filter((r) => !variables.slice(0, i).includes(r)) }).toEqual({
          [v.name]: [],
        });
      });
      for (const v of s.validations) {
        expect(reads(`${v.expression} ${v.messageExpression}`).filter((r) => !variables.includes(r))).toEqual([]);
      }
      for (const c of s.matchConditions ?? []) expect(reads(c.expression)).toEqual([]);
      for (const v of s.validations) {
        expect(() => parse(v.expression)).not.toThrow();
        expect(() => parse(v.messageExpression)).not.toThrow();
        expect(v.message).toMatch(/^[a-z0-9-]+: /);
        expect(v.messageExpression).toMatch(/^'[a-z0-9-]+: /);
      }
    }
  });

  test('info is not enforced: a Windows pod without spec.os (windows-os-unset, info) passes', () => {
    const pod = windowsPod({ os: undefined });
    expect(evaluatePolicies(objects, pod).violations).toEqual([]);
    expect(evaluatePolicies(objects, pod).matched).toEqual(['k8s-windows-pod-deny', 'k8s-windows-pod-warn']);
  });
});

describe('modes', () => {
  test.each([
    ['deny', ['Deny'], ['Warn']],
    ['warn', ['Warn', 'Audit'], ['Warn']],
    ['audit', ['Audit'], ['Audit']],
  ] as const)('%s', (mode, deny, warn) => {
    const objects = generatePolicies({ mode, cloud: 'gke' }).objects;
    const actions = (name: string) =>
      spec(objects.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding' && o.metadata.name === name)!)
        .validationActions;
    expect(actions('k8s-windows-pod-deny')).toEqual(deny);
    expect(actions('k8s-windows-pod-warn')).toEqual(warn);
  });
});

describe('settings and clouds', () => {
  test('gke makes a missing toleration a warning; without a cloud it is info and not enforced', () => {
    const pod = windowsPod({});
    expect(evaluatePolicies(generatePolicies().objects, pod).violations).toEqual([]);
    expect(evaluatePolicies(generatePolicies({ cloud: 'gke' }).objects, pod).violations).toEqual([
      {
        ruleId: 'windows-toleration-missing',
        message:
          'windows-toleration-missing: This Windows pod does not tolerate node.kubernetes.io/os=windows:NoSchedule, which GKE puts on Windows Server nodes: it stays Pending. Add toleration { key: node.kubernetes.io/os, operator: Equal, value: windows, effect: NoSchedule } (or the taints your node pool really sets).',
        policy: 'k8s-windows-pod-warn',
        actions: ['Warn'],
      },
    ]);
  });

  test('a severity setting re-levels a rule; off leaves it out of every policy', () => {
    const relevelled = generatePolicies({ settings: { 'windows-toleration-missing': 'error' } }).objects;
    expect(evaluatePolicies(relevelled, windowsPod({})).violations.map((v) => [v.ruleId, v.policy])).toEqual([
      ['windows-toleration-missing', 'k8s-windows-pod-deny'],
    ]);
    const off = generatePolicies({ settings: { 'windows-os-name': 'off' } }).objects;
    const text = JSON.stringify(off);
    expect(text).not.toContain("'windows-os-name: ");
    expect(
      evaluatePolicies(off, windowsPod({ os: { name: 'Windows' } })).violations.map((v) => v.ruleId),
    ).not.toContain('windows-os-name');
  });

  test('a rule with every validation off or info leaves no empty policy behind', () => {
    const ids = Object.fromEntries(celRules().map((r) => [r.meta.id, 'off' as const]));
    expect(generatePolicies({ settings: ids }).objects).toEqual([]);
  });
});

describe('suppressions', () => {
  const objects = generatePolicies({ settings: { 'windows-toleration-missing': 'error' } }).objects;

  test.each([
    ['its annotation on the pod', { 'suppress.k8s-windows.io/windows-toleration-missing': 'tainted by the pool' }],
    ['the waive list', { 'k8s-windows.io/waive': 'windows-os-unset, windows-toleration-missing' }],
    ['waive *', { 'k8s-windows.io/waive': '*' }],
  ])('a warning-or-error rule is suppressed by %s', (_t, annotations) => {
    const pod = windowsPod({}, { name: 'web', annotations });
    expect(evaluatePolicies(objects, pod).violations).toEqual([]);
  });

  test("a workload's own annotation suppresses for its template", () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', annotations: { 'suppress.k8s-windows.io/windows-toleration-missing': 'ok' } },
      spec: { template: { spec: windowsPod({}).spec } },
    };
    expect(evaluatePolicies(objects, deployment).violations).toEqual([]);
  });

  test('an error the API server refuses the pod for is never suppressed', () => {
    const pod = windowsPod({ os: { name: 'Windows' } }, { name: 'web', annotations: { 'k8s-windows.io/waive': '*' } });
    expect(evaluatePolicies(objects, pod).violations.map((v) => v.ruleId)).toEqual(['windows-os-name']);
  });
});

test('an UPDATE is checked only when it changes the spec: a finalizer removed from an old pod goes through', () => {
  const objects = generatePolicies().objects;
  const old = windowsPod({ os: { name: 'Windows' } }, { name: 'web', finalizers: ['example.com/x'] });
  const withoutFinalizer = windowsPod({ os: { name: 'Windows' } }, { name: 'web' });
  expect(evaluatePolicies(objects, withoutFinalizer, { operation: 'UPDATE', oldObject: old }).matched).toEqual([]);
  const changed = windowsPod({ os: { name: 'Windows' }, hostname: 'b' }, { name: 'web' });
  expect(
    evaluatePolicies(objects, changed, { operation: 'UPDATE', oldObject: old }).violations.map((v) => v.ruleId),
  ).toEqual(['windows-os-name']);
});

describe('exclusions', () => {
  const objects = generatePolicies({
    exclude: [
      { name: 'legacy', namespace: 'apps' },
      { name: 'tool', kind: 'Deployment' },
    ],
    systemNamespaces: ['infra'],
  }).objects;
  const bad = (name: string, namespace: string) => windowsPod({ os: { name: 'Windows' } }, { name, namespace });

  test('the named objects are not matched; others are', () => {
    expect(evaluatePolicies(objects, bad('legacy', 'apps')).matched).toEqual([]);
    expect(evaluatePolicies(objects, bad('legacy', 'web')).violations.map((v) => v.ruleId)).toEqual([
      'windows-os-name',
    ]);
    expect(evaluatePolicies(objects, bad('tool', 'web')).violations.map((v) => v.ruleId)).toEqual(['windows-os-name']);
  });

  test('the system namespaces given replace the default ones', () => {
    expect(evaluatePolicies(objects, bad('web', 'infra')).matched).toEqual([]);
    expect(evaluatePolicies(objects, bad('web', 'kube-system')).violations.map((v) => v.ruleId)).toEqual([
      'windows-os-name',
    ]);
  });
});

describe('cluster facts', () => {
  const objects = generatePolicies({ clusterFacts: FACTS }).objects;
  const params = objects.filter((o) => o.kind === 'WindowsClusterFacts') as unknown as Record<string, unknown>[];

  test('the CRD and the facts object come first', () => {
    expect(objects.slice(0, 2).map((o) => [o.kind, o.metadata.name])).toEqual([
      ['CustomResourceDefinition', 'windowsclusterfacts.k8s-windows.io'],
      ['WindowsClusterFacts', 'k8s-windows'],
    ]);
    expect(objects[1]!.spec).toEqual({
      pools: FACTS.pools,
      runtimeClasses: FACTS.runtimeClasses,
    });
  });

  test("a pod that tolerates none of the pools' taints is denied with the facts, not without", () => {
    const pod = windowsPod({});
    expect(evaluatePolicies(objects, pod).violations).toEqual([]);
    expect(evaluatePolicies(objects, pod, { params }).violations).toEqual([
      {
        ruleId: 'windows-toleration-missing',
        message:
          "windows-toleration-missing: This Windows pod tolerates the taints of none of the cluster's Windows pools (win2022: os=windows:NoSchedule): it stays Pending. Add tolerations for the taints of the pool it should run on.",
        policy: 'k8s-windows-pod-deny-cluster',
        actions: ['Deny'],
      },
    ]);
    const tolerating = windowsPod({ tolerations: [{ key: 'os', operator: 'Exists', effect: 'NoSchedule' }] });
    expect(evaluatePolicies(objects, tolerating, { params }).violations).toEqual([]);
  });

  test('a pod pinned to a build no pool runs is denied with the facts', () => {
    const pod = windowsPod({
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.26100' },
      tolerations: [{ key: 'os', operator: 'Exists' }],
      containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2025' }],
    });
    expect(evaluatePolicies(objects, pod, { params }).violations).toEqual([
      {
        ruleId: 'windows-build-retired',
        message:
          'windows-build-retired: This pod pins nodeSelector node.kubernetes.io/windows-build=10.0.26100, which no Windows pool of the cluster runs (win2022: 10.0.20348): the pod stays Pending. Pin the build of the pool it should run on.',
        policy: 'k8s-windows-pod-deny-cluster',
        actions: ['Deny'],
      },
    ]);
  });

  test('readClusterFacts names every bad field at once', () => {
    expect(
      readClusterFacts(
        {
          pools: [{ name: '', provider: 'azure', build: '2022', taints: [{ key: 'os', effect: 'NoPlace' }] }],
          extra: 1,
        },
        'facts.yaml',
      ).issues.map((i) => i.path),
    ).toEqual([
      'facts.yaml.extra',
      'facts.yaml.pools[0].name',
      'facts.yaml.pools[0].provider',
      'facts.yaml.pools[0].build',
      'facts.yaml.pools[0].taints[0].effect',
    ]);
    expect(readClusterFacts({ apiVersion: 'v1', kind: 'ConfigMap' }, 'f').issues[0]!.message).toBe(
      'The object is v1 ConfigMap, not k8s-windows.io/v1alpha1 WindowsClusterFacts.',
    );
  });
});

test('bad options are refused together, each with the option, the value and the fix', () => {
  let error: unknown;
  try {
    generatePolicies({
      mode: 'block' as never,
      kubernetesVersion: '1.29',
      settings: { 'no-such-rule': 'off', 'windows-os-name': 'fatal' as never },
      namePrefix: 'K8S',
    });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(WindowsValidationError);
  expect((error as WindowsValidationError).issues.map((i) => [i.path, i.message, i.fix])).toEqual([
    ['mode', "'block' is not a mode.", 'Use deny, warn, audit.'],
    [
      'kubernetesVersion',
      'Kubernetes 1.29 does not serve ValidatingAdmissionPolicy as admissionregistration.k8s.io/v1 (GA in 1.30).',
      'Upgrade the cluster to 1.30 or later, or keep using lint in CI.',
    ],
    ['settings.no-such-rule', "'no-such-rule' is not a rule id.", 'Name a rule of `k8s-windows rules`.'],
    ['settings.windows-os-name', "'fatal' is not a rule setting.", 'Use error, warning, info, off.'],
    [
      'namePrefix',
      "'K8S' is not a DNS subdomain name.",
      "Lower-case letters, digits, '-' and '.', at most 200 characters.",
    ],
  ]);
});

describe('image-build-mismatch in the cluster', () => {
  const objects = generatePolicies().objects;
  const pinned = (build: string, image: string, extra: Record<string, unknown> = {}) =>
    windowsPod({
      nodeSelector: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': build },
      containers: [{ name: 'web', image }],
      ...extra,
    });

  test('a Windows Server 2025 node runs ltsc2022 images with process isolation (the facts table)', () => {
    expect(
      evaluatePolicies(objects, pinned('10.0.26100', 'mcr.microsoft.com/windows/servercore:ltsc2022')).violations,
    ).toEqual([]);
  });

  test('a 2022 node does not run an ltsc2025 image: denied with the fix', () => {
    expect(
      evaluatePolicies(objects, pinned('10.0.20348', 'mcr.microsoft.com/windows/servercore:ltsc2025')).violations,
    ).toEqual([
      {
        ruleId: 'image-build-mismatch',
        message:
          "image-build-mismatch: Image 'mcr.microsoft.com/windows/servercore:ltsc2025' (container web) is built for Windows Server 2025 but the pod is pinned by nodeSelector node.kubernetes.io/windows-build=10.0.20348 to Windows Server 2022 nodes, which with process isolation run only ltsc2022 images (\"the container operating system does not match the host operating system\"). Use the image's ltsc2022 tag, or pin the workload to Windows Server 2025 nodes.",
        policy: 'k8s-windows-pod-deny',
        actions: ['Deny'],
      },
    ]);
  });

  test('a pod naming a RuntimeClass is judged as Hyper-V could run it: an older image passes, a newer one not', () => {
    const rc = { runtimeClassName: 'windows-hyperv' };
    expect(
      evaluatePolicies(objects, pinned('10.0.20348', 'mcr.microsoft.com/windows/servercore:ltsc2019', rc)).violations,
    ).toEqual([]);
    expect(
      evaluatePolicies(
        objects,
        pinned('10.0.20348', 'mcr.microsoft.com/windows/servercore:ltsc2025', rc),
      ).violations.map((v) => v.ruleId),
    ).toEqual(['image-build-mismatch']);
  });

  test('HostProcess containers run on the host and are not judged', () => {
    const hostProcess = pinned('10.0.20348', 'mcr.microsoft.com/windows/servercore:ltsc2019', {
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      hostNetwork: true,
    });
    expect(evaluatePolicies(objects, hostProcess).violations.map((v) => v.ruleId)).not.toContain(
      'image-build-mismatch',
    );
  });
});

describe('windows-node-selector-missing in the cluster', () => {
  const objects = generatePolicies({ cloud: 'eks' }).objects;
  const image = [{ name: 'web', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }];

  test('a Windows image on a pod that selects Linux nodes is denied, naming the label', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: { nodeSelector: { 'beta.kubernetes.io/os': 'linux' }, containers: image, hostNetwork: false },
    };
    // The selector decides the OS (Linux), so the image does not make it a Windows pod: nothing to deny.
    expect(evaluatePolicies(objects, pod).violations).toEqual([]);
    const windows = { ...pod, spec: { ...pod.spec, os: { name: 'windows' } } };
    expect(evaluatePolicies(objects, windows).violations.map((v) => v.message)).toEqual([
      'windows-node-selector-missing: This pod is Windows (spec.os.name is windows) but selects beta.kubernetes.io/os=linux nodes, where it cannot run. Add nodeSelector { kubernetes.io/os: windows } (schedulingFor(target) emits it with the tolerations).',
    ]);
  });

  test('with cloud eks, a pool label in required affinity without the OS selector is a warning naming the label', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web' },
      spec: {
        os: { name: 'windows' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'eks.amazonaws.com/nodegroup', operator: 'In', values: ['win'] }] },
              ],
            },
          },
        },
        containers: image,
      },
    };
    expect(evaluatePolicies(objects, pod).violations).toEqual([
      {
        ruleId: 'windows-node-selector-missing',
        message:
          'windows-node-selector-missing: This pod is Windows (spec.os.name is windows) and selects nodes by eks.amazonaws.com/nodegroup but not by kubernetes.io/os: unless that label selects only Windows nodes it can land on a Linux node. Add nodeSelector { kubernetes.io/os: windows } (schedulingFor(target) emits it with the tolerations).',
        policy: 'k8s-windows-pod-warn',
        actions: ['Warn'],
      },
    ]);
  });
});
