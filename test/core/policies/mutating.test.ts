import { mutatingPolicies, mutatingPolicyName, pointerToken } from '../../../lib/core/policies/mutating';
import type { PolicyObject } from '../../../lib/core/policies/types';
import { expectedFor } from '../../../scripts/policy-mutations';
import { asMapLiterals, evaluateMutations, policyVariables } from '../../helpers/map-eval';
import { factsObjects, readMutationCases } from '../../helpers/policy-mutations';

type Rec = Record<string, unknown>;
const spec = (o: PolicyObject) => o.spec as Rec;
const names = (objects: readonly PolicyObject[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`);

describe('mutatingPolicies', () => {
  test('nothing unless mutating is asked for', () => {
    expect(mutatingPolicies()).toEqual([]);
    expect(mutatingPolicies({ mutating: false })).toEqual([]);
  });

  const all = mutatingPolicies({ mutating: true });

  test('one plain and one -cluster policy per shape, policies before bindings, admissionregistration.k8s.io/v1', () => {
    const policies = ['pod', 'workload', 'cronjob'].flatMap((s) => [
      `k8s-windows-${s}-mutate`,
      `k8s-windows-${s}-mutate-cluster`,
    ]);
    expect(names(all)).toEqual([
      ...policies.map((n) => `MutatingAdmissionPolicy/${n}`),
      ...policies.map((n) => `MutatingAdmissionPolicyBinding/${n}`),
    ]);
    expect(new Set(all.map((o) => o.apiVersion))).toEqual(new Set(['admissionregistration.k8s.io/v1']));
    expect(all.every((o) => o.metadata.labels?.['app.kubernetes.io/managed-by'] === 'k8s-windows')).toBe(true);
  });

  test('v1beta1 for 1.34–1.35 clusters: the same objects under another apiVersion', () => {
    const beta = mutatingPolicies({ mutating: true, mutatingVersion: 'v1beta1' });
    expect(beta.map((o) => o.apiVersion)).toEqual(all.map(() => 'admissionregistration.k8s.io/v1beta1'));
    expect(beta.map(({ apiVersion: _a, ...rest }) => rest)).toEqual(all.map(({ apiVersion: _a, ...rest }) => rest));
    expect(() => mutatingPolicies({ mutating: true, mutatingVersion: 'v1alpha1' as 'v1' })).toThrow(
      'mutatingVersion "v1alpha1" is not one of v1, v1beta1',
    );
  });

  test('failurePolicy Ignore, reinvocationPolicy IfNeeded; the -cluster policies take the facts as params', () => {
    for (const p of all.filter((o) => o.kind === 'MutatingAdmissionPolicy')) {
      expect(spec(p).failurePolicy).toBe('Ignore');
      expect(spec(p).reinvocationPolicy).toBe('IfNeeded');
      const cluster = p.metadata.name.endsWith('-cluster');
      expect(spec(p).paramKind).toEqual(
        cluster ? { apiVersion: 'k8s-windows.io/v1alpha1', kind: 'WindowsClusterFacts' } : undefined,
      );
    }
    const bindings = all.filter((o) => o.kind === 'MutatingAdmissionPolicyBinding');
    expect(bindings.find((b) => b.metadata.name === 'k8s-windows-workload-mutate-cluster')?.spec).toEqual({
      policyName: 'k8s-windows-workload-mutate-cluster',
      paramRef: { name: 'k8s-windows', parameterNotFoundAction: 'Allow' },
    });
    expect(bindings.find((b) => b.metadata.name === 'k8s-windows-pod-mutate')?.spec).toEqual({
      policyName: 'k8s-windows-pod-mutate',
    });
  });

  test('pods on CREATE only, workloads and CronJobs on CREATE and an UPDATE of the template; the exclusions of POLICIES.md', () => {
    const byName = (n: string) => all.find((o) => o.kind === 'MutatingAdmissionPolicy' && o.metadata.name === n)!;
    expect((spec(byName('k8s-windows-pod-mutate')).matchConstraints as Rec).resourceRules).toEqual([
      { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] },
    ]);
    expect((spec(byName('k8s-windows-workload-mutate')).matchConstraints as Rec).resourceRules).toEqual([
      {
        apiGroups: ['apps'],
        apiVersions: ['v1'],
        operations: ['CREATE', 'UPDATE'],
        resources: ['deployments', 'statefulsets', 'daemonsets', 'replicasets'],
      },
      { apiGroups: ['batch'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['jobs'] },
      { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['replicationcontrollers'] },
    ]);
    const constraints = spec(byName('k8s-windows-cronjob-mutate-cluster')).matchConstraints as Rec;
    expect(constraints.namespaceSelector).toEqual({
      matchExpressions: [
        {
          key: 'kubernetes.io/metadata.name',
          operator: 'NotIn',
          values: ['kube-system', 'kube-public', 'kube-node-lease'],
        },
        { key: 'k8s-windows.io/policies', operator: 'NotIn', values: ['disabled'] },
      ],
    });
    expect(constraints.objectSelector).toEqual({
      matchExpressions: [{ key: 'k8s-windows.io/policies', operator: 'NotIn', values: ['disabled'] }],
    });
    expect(spec(byName('k8s-windows-pod-mutate')).matchConditions).toBeUndefined();
    expect(spec(byName('k8s-windows-cronjob-mutate')).matchConditions).toEqual([
      {
        name: 'k8s-windows-template-changed',
        expression:
          "request.operation != 'UPDATE' || oldObject == null || object.spec.jobTemplate != oldObject.spec.jobTemplate",
      },
    ]);
  });

  test('options: name prefix, facts name, system namespaces, named exclusions', () => {
    const objects = mutatingPolicies({
      mutating: true,
      namePrefix: 'acme',
      clusterFactsName: 'prod',
      systemNamespaces: [],
      exclude: [{ namespace: 'legacy', name: 'old-web', kind: 'Deployment' }, { name: 'probe' }],
    });
    expect(objects[0].metadata.name).toBe('acme-pod-mutate');
    const policy = objects.find(
      (o) => o.metadata.name === 'acme-workload-mutate-cluster' && o.kind === 'MutatingAdmissionPolicy',
    )!;
    expect(spec(policy).matchConditions).toEqual([
      {
        name: 'k8s-windows-not-excluded',
        expression:
          "!((object.metadata.name == 'old-web' && request.namespace == 'legacy' && request.kind.kind == 'Deployment') || (object.metadata.name == 'probe'))",
      },
      {
        name: 'k8s-windows-template-changed',
        expression:
          "request.operation != 'UPDATE' || oldObject == null || object.spec.template != oldObject.spec.template",
      },
    ]);
    expect((spec(policy).matchConstraints as Rec).namespaceSelector).toEqual({
      matchExpressions: [{ key: 'k8s-windows.io/policies', operator: 'NotIn', values: ['disabled'] }],
    });
    const binding = objects.find(
      (o) => o.metadata.name === 'acme-pod-mutate-cluster' && o.kind === 'MutatingAdmissionPolicyBinding',
    )!;
    expect((spec(binding).paramRef as Rec).name).toBe('prod');
    expect(mutatingPolicyName('x', 'cronjob', true)).toBe('x-cronjob-mutate-cluster');
  });

  test('a rule set off in the settings loses its mutation; all off, no policy', () => {
    const noOs = mutatingPolicies({ mutating: true, settings: { 'windows-os-unset': 'off' } });
    const pod = noOs.find((o) => o.metadata.name === 'k8s-windows-pod-mutate' && o.kind === 'MutatingAdmissionPolicy')!;
    expect((spec(pod).mutations as Rec[]).map((m) => m.patchType)).toEqual(['JSONPatch']);
    const off = mutatingPolicies({
      mutating: true,
      settings: {
        'windows-os-unset': 'off',
        'windows-node-selector-missing': 'off',
        'windows-node-selector-affinity-only': 'off',
        'windows-toleration-missing': 'off',
        'image-build-unpinned': 'off',
      },
    });
    expect(off).toEqual([]);
    // A severity is not `off`: the mutation stays.
    expect(mutatingPolicies({ mutating: true, settings: { 'windows-os-unset': 'warning' } })).toEqual(all);
  });

  test('ApplyConfiguration for spec.os and runtimeClassName, JSON patches for the atomic nodeSelector and tolerations', () => {
    const wl = all.find(
      (o) => o.metadata.name === 'k8s-windows-cronjob-mutate' && o.kind === 'MutatingAdmissionPolicy',
    )!;
    expect(spec(wl).mutations).toEqual([
      {
        patchType: 'ApplyConfiguration',
        applyConfiguration: {
          expression:
            "variables.mut_declareOs ? Object{spec: Object.spec{jobTemplate: Object.spec.jobTemplate{spec: Object.spec.jobTemplate.spec{template: Object.spec.jobTemplate.spec.template{spec: Object.spec.jobTemplate.spec.template.spec{os: Object.spec.jobTemplate.spec.template.spec.os{name: 'windows'}}}}}}} : Object{}",
        },
      },
      {
        patchType: 'JSONPatch',
        jsonPatch: {
          expression:
            "variables.mut_selectOs ? (has(variables.spec.nodeSelector) ? [JSONPatch{op: 'add', path: '/spec/jobTemplate/spec/template/spec/nodeSelector/kubernetes.io~1os', value: 'windows'}] : [JSONPatch{op: 'add', path: '/spec/jobTemplate/spec/template/spec/nodeSelector', value: {'kubernetes.io/os': 'windows'}}]) : []",
        },
      },
    ]);
    const pod = all.find(
      (o) => o.metadata.name === 'k8s-windows-pod-mutate-cluster' && o.kind === 'MutatingAdmissionPolicy',
    )!;
    expect(spec(pod).mutations).toEqual([
      {
        patchType: 'JSONPatch',
        jsonPatch: {
          expression:
            "variables.mut_tolerations.size() == 0 ? [] : has(variables.spec.tolerations) ? variables.mut_tolerations.map(t, JSONPatch{op: 'add', path: '/spec/tolerations/-', value: t}) : [JSONPatch{op: 'add', path: '/spec/tolerations', value: variables.mut_tolerations}]",
        },
      },
      {
        patchType: 'ApplyConfiguration',
        applyConfiguration: {
          expression:
            "variables.mut_runtimeClass != '' ? Object{spec: Object.spec{runtimeClassName: variables.mut_runtimeClass}} : Object{}",
        },
      },
    ]);
    expect(pointerToken('a/b~c')).toBe('a~1b~0c');
  });

  test('the test reader turns initialisers into map literals and leaves strings alone', () => {
    expect(asMapLiterals("x ? Object{spec: Object.spec{os: Object.spec.os{name: 'a: b{'}}} : Object{}")).toBe(
      "x ? {'spec': {'os': {'name': 'a: b{'}}} : {}",
    );
    expect(asMapLiterals("[JSONPatch{op: 'add', path: '/x', value: {'k': 'v'}}]")).toBe(
      "[{'op': 'add', 'path': '/x', 'value': {'k': 'v'}}]",
    );
  });
});

describe('the guards', () => {
  const [podPolicy] = mutatingPolicies({ mutating: true });
  const pod = (s: Rec, annotations?: Rec) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'c', image: 'example.com/c:1' }], ...s },
  });
  const guards = (s: Rec, annotations?: Rec) => {
    const v = policyVariables(podPolicy, pod(s, annotations));
    return { sure: v.mut_sure, os: v.mut_declareOs, selector: v.mut_selectOs };
  };

  test.each([
    [
      'selector windows',
      { nodeSelector: { 'kubernetes.io/os': 'windows' } },
      { sure: true, os: true, selector: false },
    ],
    [
      'beta selector windows',
      { nodeSelector: { 'beta.kubernetes.io/os': 'windows' } },
      { sure: true, os: true, selector: false },
    ],
    [
      'AKS os-sku Windows2022',
      { nodeSelector: { 'kubernetes.azure.com/os-sku': 'Windows2022' } },
      { sure: true, os: true, selector: false },
    ],
    ['declared windows', { os: { name: 'windows' } }, { sure: true, os: false, selector: true }],
    ['declared linux', { os: { name: 'linux' } }, { sure: false, os: false, selector: false }],
    [
      'selector Windows (not the label value)',
      { nodeSelector: { 'kubernetes.io/os': 'Windows' } },
      { sure: false, os: false, selector: false },
    ],
    [
      'declared windows, affinity linux',
      { os: { name: 'windows' }, affinity: affinity('In', ['linux']) },
      { sure: false, os: false, selector: false },
    ],
    ['affinity windows', { affinity: affinity('In', ['windows']) }, { sure: true, os: true, selector: false }],
    ['affinity NotIn linux', { affinity: affinity('NotIn', ['linux']) }, { sure: true, os: true, selector: false }],
    ['nothing', {}, { sure: false, os: false, selector: false }],
    [
      'selector windows, hostPID',
      { nodeSelector: { 'kubernetes.io/os': 'windows' }, hostPID: true },
      { sure: true, os: false, selector: false },
    ],
    [
      'selector windows, hostPID false',
      { nodeSelector: { 'kubernetes.io/os': 'windows' }, hostPID: false },
      { sure: true, os: true, selector: false },
    ],
    [
      'selector windows, empty sysctls',
      { nodeSelector: { 'kubernetes.io/os': 'windows' }, securityContext: { sysctls: [] } },
      { sure: true, os: true, selector: false },
    ],
    [
      'selector windows, privileged container',
      {
        nodeSelector: { 'kubernetes.io/os': 'windows' },
        containers: [{ name: 'c', securityContext: { privileged: false } }],
      },
      { sure: true, os: false, selector: false },
    ],
    [
      'selector windows, pod resources',
      { nodeSelector: { 'kubernetes.io/os': 'windows' }, resources: { limits: { cpu: '1' } } },
      { sure: true, os: false, selector: false },
    ],
  ])('%s', (_name, s, expected) => {
    expect(guards(s as Rec)).toEqual(expected);
  });

  test('a suppression (or a waive list) of the rule keeps its mutation off', () => {
    const s = { nodeSelector: { 'kubernetes.io/os': 'windows' } };
    expect(guards(s, { 'suppress.k8s-windows.io/windows-os-unset': 'why' }).os).toBe(false);
    expect(guards(s, { 'k8s-windows.io/waive': 'other, windows-os-unset' }).os).toBe(false);
    expect(guards(s, { 'k8s-windows.io/waive': '*' }).os).toBe(false);
    const affinityOnly = { os: { name: 'windows' }, affinity: affinity('In', ['windows']) };
    expect(guards(affinityOnly).selector).toBe(true);
    expect(guards(affinityOnly, { 'suppress.k8s-windows.io/windows-node-selector-affinity-only': 'x' }).selector).toBe(
      false,
    );
    expect(guards(affinityOnly, { 'suppress.k8s-windows.io/windows-node-selector-missing': 'x' }).selector).toBe(true);
  });
});

function affinity(operator: string, values: string[]) {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator, values }] }],
      },
    },
  };
}

describe('test/fixtures/policies/mutations.yaml', () => {
  const cases = readMutationCases();
  const policies = mutatingPolicies({ mutating: true });

  test('has cases for every shape, with and without facts, same as fix and not', () => {
    expect(new Set(cases.map((c) => c.input.kind))).toEqual(
      new Set(['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']),
    );
    expect(cases.some((c) => c.facts) && cases.some((c) => !c.facts)).toBe(true);
    expect(new Set(cases.map((c) => c.fix))).toEqual(new Set(['same', 'differs']));
    expect(cases.filter((c) => c.fix === 'differs').every((c) => (c.note ?? '').length > 0)).toBe(true);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s: expected is what fix writes (or the input)', (_n, c) => {
    expect(c.expected).toEqual(expectedFor(c));
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s: the policies write expected', (_n, c) => {
    const result = evaluateMutations(policies, c.input, {
      operation: c.operation ?? 'CREATE',
      params: factsObjects(c.facts),
      ...(c.oldObject !== undefined ? { oldObject: c.oldObject } : {}),
    });
    expect(result.errors).toEqual([]);
    expect(result.object).toEqual(c.expected);
  });

  test('a namespace the policies exclude is left alone', () => {
    const c = cases.find((x) => x.name === 'pod-selects-windows')!;
    const input = { ...c.input, metadata: { name: 'web', namespace: 'kube-system' } };
    expect(evaluateMutations(policies, input).object).toEqual(input);
    const optedOut = evaluateMutations(policies, c.input, {
      namespaceLabels: { 'k8s-windows.io/policies': 'disabled' },
    });
    expect(optedOut.object).toEqual(c.input);
    expect(evaluateMutations(policies, c.input).changedBy).toEqual(['k8s-windows-pod-mutate']);
  });
});
