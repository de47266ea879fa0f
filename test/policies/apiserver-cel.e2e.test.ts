/**
 * The API server's own CEL judge (test/helpers/apiserver-cel.ts) on hand-written policies: what it says about
 * compiling, type-checking and cost, and how it matches and evaluates, before the generated policies are held to it.
 * Without Go the helper cannot be built and every test here fails (beforeAll throws): none is skipped.
 */
import {
  apiserverCel,
  ApiserverCelRequestError,
  ensureApiserverCel,
  kubernetesApiSchemas,
  type ApiserverCelCase,
  type ApiserverCelExpression,
  type ApiserverCelRequest,
  type ApiserverCelResponse,
  type KubeObject,
} from '../helpers/apiserver-cel';

const SCHEMAS = kubernetesApiSchemas('1.37');

beforeAll(() => {
  ensureApiserverCel();
}, 15 * 60_000);

type Rule = { readonly group: string; readonly resource: string };
const PODS: Rule = { group: '', resource: 'pods' };
const DEPLOYMENTS: Rule = { group: 'apps', resource: 'deployments' };
const CRONJOBS: Rule = { group: 'batch', resource: 'cronjobs' };

function matchConstraints(rule: Rule, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resourceRules: [
      { apiGroups: [rule.group], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: [rule.resource] },
    ],
    ...extra,
  };
}

function vap(name: string, rule: Rule, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: matchConstraints(rule), ...spec },
  };
}

function podSpec(os: 'windows' | 'linux', containers = 1): Record<string, unknown> {
  return {
    os: { name: os },
    containers: Array.from({ length: containers }, (_, i) => ({ name: `app${i}`, image: 'mcr.microsoft.com/iis' })),
  };
}

const pod = (name: string, os: 'windows' | 'linux', extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shop', ...extra },
  spec: podSpec(os),
});
const deployment = (name: string, os: 'windows' | 'linux'): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'shop' },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: podSpec(os) },
  },
});
const cronJob = (name: string, os: 'windows' | 'linux'): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name, namespace: 'shop' },
  spec: { schedule: '0 * * * *', jobTemplate: { spec: { template: { spec: podSpec(os) } } } },
});

const create = (object: KubeObject, namespace?: ApiserverCelCase['namespace']): ApiserverCelCase => ({
  object,
  operation: 'CREATE',
  ...(namespace === undefined ? {} : { namespace }),
});

function judge(request: Omit<ApiserverCelRequest, 'kubernetesVersion' | 'schemas'>): ApiserverCelResponse {
  return apiserverCel({ kubernetesVersion: '1.37', schemas: SCHEMAS, ...request });
}

const WINDOWS = (path: string): Record<string, unknown> => ({
  expression: `has(${path}.os) && ${path}.os.name == 'windows'`,
  messageExpression: `object.kind + ' ' + object.metadata.name + ': set ${path.replace(/^object\./, '')}.os.name: windows'`,
});

describe('a policy the API server accepts', () => {
  let response: ApiserverCelResponse;
  beforeAll(() => {
    response = judge({
      policies: [
        vap('pod-os', PODS, { validations: [WINDOWS('object.spec')] }),
        vap('deployment-os', DEPLOYMENTS, { validations: [WINDOWS('object.spec.template.spec')] }),
        vap('cronjob-os', CRONJOBS, { validations: [WINDOWS('object.spec.jobTemplate.spec.template.spec')] }),
      ],
      cases: [
        create(pod('iis', 'windows')),
        create(pod('nginx', 'linux')),
        create(deployment('iis', 'windows')),
        create(deployment('nginx', 'linux')),
        create(cronJob('report', 'windows')),
        create(cronJob('backup', 'linux')),
      ],
    });
  });

  test('compiles, type-checks against each kind and has a cost estimate', () => {
    expect(response.compatibilityVersion).toBe('1.36');
    expect(response.policies.map((p) => [p.name, p.checkedKinds, p.errors])).toEqual([
      ['pod-os', ['v1/Pod'], []],
      ['deployment-os', ['apps/v1/Deployment'], []],
      ['cronjob-os', ['batch/v1/CronJob'], []],
    ]);
    for (const policy of response.policies) {
      expect(policy.expressions.map((e) => e.field)).toEqual([
        'spec.validations[0].expression',
        'spec.validations[0].messageExpression',
      ]);
      for (const expression of policy.expressions) {
        expect(expression.errors).toEqual([]);
        expect(expression.warnings).toEqual([]);
        expect(expression.cost).toBeGreaterThan(0);
      }
    }
  });

  test('admits the Windows objects and denies the Linux ones with the messageExpression text', () => {
    const verdicts = response.results
      .filter((r) => r.matched)
      .map((r) => [r.case, r.policy, r.violations.map((v) => `${v.reason}: ${v.message}`), r.error]);
    expect(verdicts).toEqual([
      [0, 'pod-os', [], undefined],
      [1, 'pod-os', ['Invalid: Pod nginx: set spec.os.name: windows'], undefined],
      [2, 'deployment-os', [], undefined],
      [3, 'deployment-os', ['Invalid: Deployment nginx: set spec.template.spec.os.name: windows'], undefined],
      [4, 'cronjob-os', [], undefined],
      [
        5,
        'cronjob-os',
        ['Invalid: CronJob backup: set spec.jobTemplate.spec.template.spec.os.name: windows'],
        undefined,
      ],
    ]);
    // Each object matched only the policy of its resource.
    expect(response.results.filter((r) => r.matched)).toHaveLength(6);
    expect(response.results).toHaveLength(18);
  });

  test('counts the runtime cost of each evaluation', () => {
    for (const result of response.results.filter((r) => r.matched)) {
      expect(result.cost).toBeGreaterThan(0);
      expect(result.cost).toBeLessThan(response.budgets.perCallLimit);
    }
  });
});

describe('what the API server says about a wrong expression', () => {
  let response: ApiserverCelResponse;
  beforeAll(() => {
    response = judge({
      policies: [
        vap('typo', PODS, {
          validations: [
            { expression: "!has(object.spec.nodeSelectr) || object.spec.nodeSelectr['kubernetes.io/os'] == 'windows'" },
            { expression: 'object.metadata.name > 1' },
            { expression: "'k8s-windows' + 1 == 'x'" },
            { expression: 'object.spec.hostNetwork' },
          ],
        }),
      ],
      cases: [create(pod('iis', 'windows'))],
    });
  });
  const expression = (i: number): ApiserverCelExpression => response.policies[0].expressions[i];

  test('a field the schema does not have is the TypeChecker finding (a warning: the API server still admits the policy)', () => {
    const typo = expression(0);
    expect(typo.errors).toEqual([]);
    expect(typo.warnings).toHaveLength(1);
    expect(typo.warnings[0]).toContain("/v1, Kind=Pod: ERROR: <input>:1:5: undefined field 'nodeSelectr'");
    expect(typo.cost).toBeNull();
  });

  test('a type error the untyped object hides is also only the TypeChecker finding', () => {
    const dynamic = expression(1);
    expect(dynamic.errors).toEqual([]);
    expect(dynamic.warnings[0]).toContain("found no matching overload for '_>_' applied to '(string, int)'");
  });

  test('a type error in plain values refuses the policy', () => {
    expect(expression(2).errors).toEqual([
      "compilation failed: ERROR: <input>:1:15: found no matching overload for '_+_' applied to '(string, int)'\n" +
        " | 'k8s-windows' + 1 == 'x'\n" +
        ' | ..............^',
    ]);
  });

  test('a validation that is not a bool refuses the policy, a bare field too: compare it (== true)', () => {
    expect(expression(3).errors).toEqual(['must evaluate to bool but got dyn']);
  });

  test('the evaluation reports each failed expression by its index', () => {
    const [result] = response.results;
    expect(result.violations).toEqual([]);
    expect(result.error).toContain(
      "spec.validations[1]: expression 'object.metadata.name > 1' resulted in error: no such overload",
    );
    expect(result.error).toContain('spec.validations[2]: compilation error');
  });
});

test('an integer field is an int, as the API server decodes JSON: int arithmetic on it evaluates', () => {
  const withProbe: KubeObject = {
    ...pod('probe', 'windows'),
    spec: { ...podSpec('windows'), containers: [{ name: 'a', image: 'x', livenessProbe: { periodSeconds: 10 } }] },
  };
  const response = judge({
    policies: [
      vap('int-fields', PODS, {
        validations: [
          {
            expression:
              'object.spec.containers.all(c, !has(c.livenessProbe) || c.livenessProbe.periodSeconds * 3 < 60)',
          },
        ],
      }),
    ],
    cases: [create(withProbe)],
  });
  expect(response.results[0]).toMatchObject({ matched: true, violations: [] });
  expect(response.results[0]!.error).toBeUndefined();
});

describe('patterns the TypeChecker warns about, because it checks each kind on its own', () => {
  let response: ApiserverCelResponse;
  beforeAll(() => {
    response = judge({
      policies: [
        {
          ...vap('workloads', DEPLOYMENTS, {
            validations: [
              {
                expression:
                  "(object.kind == 'CronJob' ? object.spec.jobTemplate.spec.template.spec : object.spec.template.spec).containers.size() > 0",
              },
              {
                expression:
                  "(object.spec.template.spec.containers + object.spec.template.spec.initContainers).all(c, c.name != '')",
              },
            ],
          }),
        },
      ],
      cases: [],
    });
  });

  test('a field of another kind, even in the branch not taken', () => {
    expect(response.policies[0].expressions[0].warnings[0]).toContain("undefined field 'jobTemplate'");
  });

  test('containers + initContainers: two list types with the same items do not concatenate', () => {
    expect(response.policies[0].expressions[1].warnings[0]).toContain(
      "found no matching overload for '_+_' applied to",
    );
  });
});

describe('what the TypeChecker cannot see through a variable, and inlinedErrors can', () => {
  let response: ApiserverCelResponse;
  beforeAll(() => {
    response = judge({
      policies: [
        vap('through-variables', PODS, {
          variables: [
            { name: 'spec', expression: 'object.spec' },
            {
              name: 'containers',
              expression:
                'dyn(variables.spec.containers) + (has(variables.spec.initContainers) ? dyn(variables.spec.initContainers) : [])',
            },
          ],
          validations: [
            { expression: '!has(variables.spec.nodeSelectr) || variables.spec.nodeSelectr.size() > 0' },
            { expression: "variables.containers.all(c, c.name != '')" },
          ],
        }),
      ],
      cases: [],
    });
  });

  test('a misspelt field read through variables.spec: no TypeChecker warning (it types the variable dyn), an inlined error', () => {
    const [, , misspelt, containers] = response.policies[0].expressions;
    expect(misspelt).toMatchObject({ errors: [], warnings: [] });
    expect(misspelt!.inlinedErrors).toEqual([expect.stringContaining("undefined field 'nodeSelectr'")]);
    // dyn() on each list lets the two lists concatenate typed, so the expressions that read them stay checkable.
    expect(containers).toMatchObject({ errors: [], warnings: [], inlinedErrors: [] });
  });
});

describe('the cost budget', () => {
  const nested =
    "object.spec.containers.all(a, object.spec.containers.all(b, object.spec.containers.all(c, a.name != '')))";
  const big = { ...pod('big', 'windows'), spec: podSpec('windows', 110) };
  let response: ApiserverCelResponse;
  beforeAll(() => {
    response = judge({
      policies: [
        vap('nested', PODS, { validations: [{ expression: nested }] }),
        vap('linear', PODS, { validations: [{ expression: "object.spec.containers.all(c, c.name != '')" }] }),
      ],
      cases: [create(big)],
    });
  });

  test('the budgets are the API server constants', () => {
    expect(response.budgets).toEqual({
      perCallLimit: 1_000_000,
      runtimeCELCostBudget: 10_000_000,
      runtimeCELCostBudgetMatchConditions: 2_500_000,
    });
  });

  test('the static estimate of a triple loop is far over the per-expression limit, a single loop far less', () => {
    const [nestedCost, linearCost] = response.policies.map((p) => p.expressions[0].cost ?? 0);
    expect(nestedCost).toBeGreaterThan(response.budgets.runtimeCELCostBudget * 1_000_000);
    expect(linearCost).toBeLessThan(nestedCost / 1_000_000);
  });

  test('the API server cancels the triple loop on 110 containers and runs the single loop', () => {
    const [nestedResult, linearResult] = response.results;
    expect(nestedResult.error).toContain('operation cancelled: actual cost limit exceeded');
    expect(nestedResult.cost).toBeGreaterThan(response.budgets.perCallLimit);
    expect(linearResult.error).toBeUndefined();
    expect(linearResult.violations).toEqual([]);
    expect(linearResult.cost).toBeLessThan(1_000);
  });
});

describe('matching', () => {
  let response: ApiserverCelResponse;
  beforeAll(() => {
    response = judge({
      policies: [
        vap('pod-os', PODS, {
          matchConstraints: matchConstraints(PODS, {
            namespaceSelector: {
              matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
            },
          }),
          matchConditions: [
            {
              name: 'not-opted-out',
              expression: "!has(object.metadata.labels) || !('example.com/skip' in object.metadata.labels)",
            },
          ],
          validations: [WINDOWS('object.spec')],
        }),
      ],
      cases: [
        create(pod('opted-out', 'linux', { labels: { 'example.com/skip': 'true' } })),
        create({ ...pod('proxy', 'linux'), metadata: { name: 'proxy', namespace: 'kube-system' } }),
        create(pod('nginx', 'linux'), { metadata: { name: 'shop', labels: { team: 'web' } } }),
      ],
    });
  });

  test('a matchCondition that is false leaves the object alone', () => {
    expect(response.results[0]).toEqual({ case: 0, policy: 'pod-os', matched: false, violations: [] });
  });

  test('a namespaceSelector excludes a namespace by the label the API server sets on every namespace', () => {
    expect(response.results[1].matched).toBe(false);
  });

  test('an object that matches is evaluated', () => {
    expect(response.results[2].matched).toBe(true);
    expect(response.results[2].violations.map((v) => v.message)).toEqual(['Pod nginx: set spec.os.name: windows']);
  });
});

test('an UPDATE sees oldObject, request.operation and namespaceObject', () => {
  const response = judge({
    policies: [
      vap('keep-os', PODS, {
        validations: [
          {
            expression:
              "request.operation != 'UPDATE' || oldObject.spec.os.name == object.spec.os.name || ('team' in namespaceObject.metadata.labels && namespaceObject.metadata.labels['team'] == 'platform')",
            message: 'spec.os.name may not change',
          },
        ],
      }),
    ],
    cases: [
      { object: pod('iis', 'linux'), oldObject: pod('iis', 'windows'), operation: 'UPDATE' },
      {
        object: pod('iis', 'linux'),
        oldObject: pod('iis', 'windows'),
        operation: 'UPDATE',
        namespace: { metadata: { name: 'shop', labels: { team: 'platform' } } },
      },
      { object: pod('iis', 'windows'), operation: 'UPDATE' },
    ],
  });
  expect(response.policies[0].expressions[0]).toMatchObject({ errors: [], warnings: [] });
  expect(response.results.map((r) => [r.violations.map((v) => v.message), r.error])).toEqual([
    [['spec.os.name may not change'], undefined],
    [[], undefined],
    [[], undefined],
  ]);
});

describe('a policy with params', () => {
  const paramKind = { apiVersion: 'example.com/v1', kind: 'ClusterFacts' };
  const facts = (name: string, builds: string[]): KubeObject => ({
    ...paramKind,
    metadata: { name },
    spec: { builds },
  });
  const schema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: { type: 'object', properties: { builds: { type: 'array', maxItems: 16, items: { type: 'string' } } } },
    },
  };
  const policy = (name: string, field: string): KubeObject =>
    vap(name, PODS, {
      paramKind,
      validations: [
        {
          expression: `!has(object.spec.nodeSelector) || !('node.kubernetes.io/windows-build' in object.spec.nodeSelector) || params.spec.${field}.exists(b, b == object.spec.nodeSelector['node.kubernetes.io/windows-build'])`,
          messageExpression: `'no pool runs Windows build ' + object.spec.nodeSelector['node.kubernetes.io/windows-build']`,
        },
      ],
    });
  const pinned = {
    ...pod('iis', 'windows'),
    spec: { ...podSpec('windows'), nodeSelector: { 'node.kubernetes.io/windows-build': '10.0.20348' } },
  };

  test('reads the param object, once per param of its kind', () => {
    const response = judge({
      policies: [policy('pinned-build', 'builds')],
      params: [facts('ltsc2022-pools', ['10.0.20348']), facts('ltsc2025-pools', ['10.0.26100'])],
      paramSchemas: { 'example.com/v1/ClusterFacts': schema },
      cases: [create(pinned)],
    });
    expect(response.policies[0].expressions.flatMap((e) => [...e.errors, ...e.warnings])).toEqual([]);
    expect(response.results.map((r) => [r.param, r.violations.map((v) => v.message)])).toEqual([
      ['ltsc2022-pools', []],
      ['ltsc2025-pools', ['no pool runs Windows build 10.0.20348']],
    ]);
  });

  test('params are type-checked against the param schema', () => {
    const response = judge({
      policies: [policy('pinned-build', 'buildz')],
      params: [facts('ltsc2022-pools', ['10.0.20348'])],
      paramSchemas: { 'example.com/v1/ClusterFacts': schema },
      cases: [],
    });
    expect(response.policies[0].expressions[0].warnings[0]).toContain("undefined field 'buildz'");
  });

  test('without a param of its kind the result says what a binding decides', () => {
    const response = judge({ policies: [policy('pinned-build', 'builds')], cases: [create(pinned)] });
    expect(response.results[0].error).toMatch(/^params: no object of the paramKind example.com\/v1, Kind=ClusterFacts/);
  });
});

describe('a MutatingAdmissionPolicy', () => {
  const selectsWindows =
    "has(object.spec.nodeSelector) && 'kubernetes.io/os' in object.spec.nodeSelector && object.spec.nodeSelector['kubernetes.io/os'] == 'windows'";
  const windowsSelected = (name: string): KubeObject => {
    const { os: _os, ...spec } = podSpec('windows');
    return { ...pod(name, 'windows'), spec: { ...spec, nodeSelector: { 'kubernetes.io/os': 'windows' } } };
  };
  const linux = (): KubeObject => {
    const { os: _os, ...spec } = podSpec('linux');
    return { ...pod('nginx', 'linux'), spec };
  };

  test('v1 ApplyConfiguration sets spec.os.name on the pods its matchCondition selects', () => {
    const response = judge({
      policies: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingAdmissionPolicy',
          metadata: { name: 'os-name' },
          spec: {
            matchConstraints: matchConstraints(PODS),
            matchConditions: [{ name: 'selects-windows', expression: selectsWindows }],
            reinvocationPolicy: 'Never',
            mutations: [
              {
                patchType: 'ApplyConfiguration',
                applyConfiguration: { expression: "Object{spec: Object.spec{os: Object.spec.os{name: 'windows'}}}" },
              },
            ],
          },
        },
      ],
      cases: [create(windowsSelected('iis')), create(linux())],
    });
    const [expression] = response.policies[0].expressions.filter((e) => e.field.startsWith('spec.mutations'));
    expect(expression).toMatchObject({ field: 'spec.mutations[0].applyConfiguration.expression', errors: [] });
    const [windows, other] = response.results;
    expect(windows.matched).toBe(true);
    expect(windows.error).toBeUndefined();
    expect(windows.patched).toEqual({
      ...windowsSelected('iis'),
      spec: { ...(windowsSelected('iis').spec as object), os: { name: 'windows' } },
    });
    expect(other).toEqual({ case: 1, policy: 'os-name', matched: false, violations: [] });
  });

  test('v1beta1 JSONPatch adds the Windows selector', () => {
    const response = judge({
      policies: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1beta1',
          kind: 'MutatingAdmissionPolicy',
          metadata: { name: 'os-selector' },
          spec: {
            matchConstraints: matchConstraints(PODS),
            matchConditions: [
              { name: 'windows-os', expression: "has(object.spec.os) && object.spec.os.name == 'windows'" },
            ],
            reinvocationPolicy: 'IfNeeded',
            mutations: [
              {
                patchType: 'JSONPatch',
                jsonPatch: {
                  expression:
                    "[JSONPatch{op: 'add', path: '/spec/nodeSelector', value: {'kubernetes.io/os': 'windows'}}]",
                },
              },
            ],
          },
        },
      ],
      cases: [create(pod('iis', 'windows'))],
    });
    expect(response.policies[0]).toMatchObject({ apiVersion: 'admissionregistration.k8s.io/v1beta1', errors: [] });
    expect((response.results[0].patched?.spec as Record<string, unknown>).nodeSelector).toEqual({
      'kubernetes.io/os': 'windows',
    });
  });
});

test('a wrong request is refused with every problem, each naming its field', () => {
  const request = {
    kubernetesVersion: '1.2',
    schemas: SCHEMAS,
    policies: [{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding' }],
    cases: [{ object: pod('iis', 'windows'), operation: 'DELETE' }],
  } as unknown as ApiserverCelRequest;
  expect(() => apiserverCel(request)).toThrow(ApiserverCelRequestError);
  try {
    apiserverCel(request);
  } catch (error) {
    expect((error as ApiserverCelRequestError).problems).toEqual([
      'kubernetesVersion: "1.2" is older than 1.30, the first minor with ValidatingAdmissionPolicy v1; give 1.30 or newer',
      'policies[0]: apiVersion "admissionregistration.k8s.io/v1" kind "ValidatingAdmissionPolicyBinding" is not admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, admissionregistration.k8s.io/v1 MutatingAdmissionPolicy or admissionregistration.k8s.io/v1beta1 MutatingAdmissionPolicy',
      'cases[0].operation: "DELETE" is not CREATE or UPDATE',
    ]);
  }
});
