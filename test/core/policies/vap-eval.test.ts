/**
 * The evaluator the policy tests run generated policies in (test/helpers/vap-eval.ts), and the prelude it runs
 * first, on known objects: what matches, what the prelude variables say, how a failing validation is reported.
 */
import { loadManifests } from 'k8s-windows';
import { generatePolicies } from '../../../lib/core/policies';
import { evaluatePolicies, selectorMatches } from '../../helpers/vap-eval';
import { readRuleExamples } from '../../../scripts/rule-examples';

const policies = generatePolicies().objects;

const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'web' }) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata,
  spec: { containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }], ...spec },
});

describe('windows-os-name through the pod-deny policy', () => {
  test('a capitalised os.name is denied with the rule id and the fix', () => {
    const result = evaluatePolicies(policies, pod({ os: { name: 'Windows' } }));
    expect(result.errors).toEqual([]);
    expect(result.violations.filter((v) => v.ruleId === 'windows-os-name')).toEqual([
      {
        ruleId: 'windows-os-name',
        message:
          'windows-os-name: spec.os.name "Windows" is not supported: supported values: "linux", "windows". Write \'windows\' in lower case.',
        policy: 'k8s-windows-pod-deny',
        actions: ['Deny'],
      },
    ]);
  });

  test('its examples get the verdicts lint gives them', () => {
    const examples = readRuleExamples('windows-os-name');
    for (const e of examples.failing) {
      const [object] = loadManifests(e.manifests);
      const ids = evaluatePolicies(policies, object).violations.map((v) => v.ruleId);
      expect(ids).toContain('windows-os-name');
    }
    for (const e of examples.passing) {
      const [object] = loadManifests(e.manifests);
      const ids = evaluatePolicies(policies, object).violations.map((v) => v.ruleId);
      expect(ids).not.toContain('windows-os-name');
    }
  });

  test('a Deployment is judged by its template, a CronJob by its job template', () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: pod({ os: { name: 'Linux ' } }).spec };
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { template } };
    const cronjob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'web' },
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template } } },
    };
    expect(evaluatePolicies(policies, deployment).violations.map((v) => [v.ruleId, v.policy])).toContainEqual([
      'windows-os-name',
      'k8s-windows-workload-deny',
    ]);
    expect(evaluatePolicies(policies, cronjob).violations.map((v) => [v.ruleId, v.policy])).toContainEqual([
      'windows-os-name',
      'k8s-windows-cronjob-deny',
    ]);
  });

  test('system namespaces and the opt-out label are not matched', () => {
    const bad = pod({ os: { name: 'Windows' } }, { name: 'web', namespace: 'kube-system' });
    expect(evaluatePolicies(policies, bad).matched).toEqual([]);
    const optedOut = pod(
      { os: { name: 'Windows' } },
      { name: 'web', labels: { 'k8s-windows.io/policies': 'disabled' } },
    );
    expect(evaluatePolicies(policies, optedOut).matched).toEqual([]);
    expect(
      evaluatePolicies(policies, pod({ os: { name: 'Windows' } }), {
        namespace: 'apps',
        namespaceLabels: { 'k8s-windows.io/policies': 'disabled' },
      }).matched,
    ).toEqual([]);
  });
});

test('selectorMatches reads matchLabels and every operator', () => {
  expect(selectorMatches({ matchLabels: { a: '1' } }, { a: '1' })).toBe(true);
  expect(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, { a: '1' })).toBe(
    false,
  );
  expect(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, {})).toBe(false);
  expect(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, {})).toBe(true);
});

describe('the evaluator as the API server runs a policy', () => {
  const policy = (variables: { name: string; expression: string }[], validations: Record<string, string>[]) => [
    {
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: {
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
        },
        variables,
        validations,
      },
    },
    {
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'p' },
      spec: { policyName: 'p', validationActions: ['Deny'] },
    },
  ];
  const object = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { replicas: 2, ratio: 0.5 } };

  test('integers are int, other numbers double; a failing validation reports its messageExpression', () => {
    const r = evaluatePolicies(
      policy(
        [],
        [
          {
            expression: 'object.spec.replicas == 3 && object.spec.ratio == 0.5',
            messageExpression: "'r: ' + string(object.spec.replicas)",
          },
        ],
      ),
      object,
    );
    expect(r.violations).toEqual([{ ruleId: 'r', message: 'r: 2', policy: 'p', actions: ['Deny'] }]);
  });

  test('a variable is evaluated only when read; one that fails fails only what reads it (failurePolicy Ignore)', () => {
    const r = evaluatePolicies(
      policy(
        [
          { name: 'bad', expression: 'object.spec.missing' },
          { name: 'good', expression: 'object.spec.replicas' },
        ],
        [
          { expression: 'variables.good == 3', messageExpression: "'a: good'" },
          { expression: 'variables.bad == 1', messageExpression: "'b: bad'" },
        ],
      ),
      object,
    );
    expect(r.violations.map((v) => v.message)).toEqual(['a: good']);
    expect(r.errors.map((e) => e.error)).toEqual(['variables.bad: field not found: missing']);
  });

  test('a variable cannot read one declared after it; a failing messageExpression falls back to message', () => {
    const r = evaluatePolicies(
      policy(
        [
          { name: 'first', expression: 'variables.second' },
          { name: 'second', expression: '1' },
        ],
        [{ expression: 'variables.first == 2', messageExpression: 'variables.first', message: 'c: static' }],
      ),
      object,
    );
    expect(r.violations).toEqual([]);
    expect(r.errors).toHaveLength(1);
    const fallback = evaluatePolicies(
      policy([], [{ expression: 'false', messageExpression: 'object.spec.missing', message: 'd: static' }]),
      object,
    );
    expect(fallback.violations.map((v) => v.message)).toEqual(['d: static']);
  });
});
