/**
 * The API server's own CEL is the judge of the generated policies (issue 26 §4): every policy `generatePolicies`
 * makes — the default set, each mode, with cluster facts, under each cloud, and the mutating policies (v1 on 1.37,
 * v1beta1 on 1.34 and 1.35) — is compiled and type-checked by the Go helper built on k8s.io/apiserver
 * (test/apiserver-cel/), and evaluated there on the rules' examples, the real-world corpus and generated pods. The
 * verdicts per (object, policy) must be those of the @bufbuild/cel runs the unit tests use (test/helpers/vap-eval.ts,
 * map-eval.ts), so the differential tests against lint speak for the API server too. Each evaluation's runtime cost
 * is written to build/apiserver-agreement-costs.json and must stay within the API server's budget.
 *
 * What no test here shows (docs/admission-policies.md): the API server's own matching of a live request, binding
 * selection, reinvocation across webhooks and other policies, and the authorizer.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { loadManifests } from 'k8s-windows';
import { clusterFactsCrd, clusterFactsObject, generatePolicies } from '../../lib/core/policies';
import type { ClusterFacts, PolicyObject, PolicyOptions } from '../../lib/core/policies/types';
import { celRules } from '../../lib/core/policies/validating';
import type { RuleSetting } from '../../lib/core/model/types';
import { runEngine } from '../../lib/core/validate/engine';
import { locatePodSpec } from '../../lib/core/workloads';
import { corpusObjects } from '../../scripts/corpus';
import { readRuleExamples } from '../../scripts/rule-examples';
import { runtimeClass, workload } from '../core/policies/arbitraries';
import { policiesMatch } from '../core/policies/differential';
import {
  apiserverCel,
  ensureApiserverCel,
  kubernetesApiSchemas,
  type ApiserverCelCase,
  type ApiserverCelResponse,
  type KubeObject,
} from '../helpers/apiserver-cel';
import { readMutationCases } from '../helpers/policy-mutations';
import { propertyParameters } from '../helpers/property';
import { evaluatePolicies } from '../helpers/vap-eval';

/**
 * The seed of the generated objects: random each run, unless K8S_WINDOWS_PROPERTY_SEED replays one (as every
 * property test does, test/helpers/property.ts); the test names print it, so a failure can be replayed.
 */
const SAMPLE_SEED = propertyParameters().seed ?? Math.floor(Math.random() * 0x7fffffff);
/** `runs` generated objects of `arbitrary`, from SAMPLE_SEED (scaled by K8S_WINDOWS_PROPERTY_RUNS). */
function generated<T>(arbitrary: fc.Arbitrary<T>, runs: number): T[] {
  return fc.sample(arbitrary, { ...propertyParameters(runs), seed: SAMPLE_SEED });
}

type Rec = Record<string, unknown>;
type Minor = `1.${number}`;

/** Minutes: the TypeChecker compiles every variable again for each expression and each kind it checks. */
const JUDGE_TIMEOUT = 30 * 60_000;

const FACTS: ClusterFacts = {
  pools: [
    {
      name: 'win2022',
      provider: 'eks',
      release: '2022',
      build: '10.0.20348',
      labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.20348' },
      taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
    },
  ],
  runtimeClasses: [{ name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' }],
};

const CRD = clusterFactsCrd() as unknown as {
  spec: { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: unknown } }[] };
};
/** The WindowsClusterFacts schema, so the judge type-checks `params` too. */
const PARAM_SCHEMAS = Object.fromEntries(
  CRD.spec.versions.map((v) => [`${CRD.spec.group}/${v.name}/${CRD.spec.names.kind}`, v.schema.openAPIV3Schema]),
);

const isPolicy = (o: PolicyObject) => o.kind.endsWith('AdmissionPolicy');
const nameOf = (o: unknown) => String(((o as Rec).metadata as Rec | undefined)?.name);

function judge(kubernetesVersion: Minor, policies: readonly unknown[], extra: Partial<Rec> = {}): ApiserverCelResponse {
  return apiserverCel({
    kubernetesVersion,
    schemas: kubernetesApiSchemas(kubernetesVersion),
    policies: policies as KubeObject[],
    paramSchemas: PARAM_SCHEMAS,
    ...extra,
  });
}

/**
 * Every expression the judge refused (errors), the TypeChecker warned about, or that does not type-check with the
 * variables it reads inlined (the TypeChecker types `variables.spec` as dyn: inlinedErrors is the typed check), as
 * `policy field: finding`.
 */
function findings(response: ApiserverCelResponse): string[] {
  return response.policies.flatMap((p) => [
    ...p.errors.map((e) => `${p.name}: ${e}`),
    ...p.expressions.flatMap((e) =>
      [...e.errors, ...e.warnings, ...e.inlinedErrors].map((f) => `${p.name} ${e.field}: ${f.split('\n')[0]}`),
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// The validating policies.

/** Every CEL rule enforced: a rule that is info by default (not enforced) is raised to a warning. */
const ENFORCE_ALL: Readonly<Record<string, RuleSetting>> = Object.fromEntries(
  celRules()
    .filter((r) => r.meta.defaultSeverity === 'info' || (r.meta.cases ?? []).some((c) => c.severity === 'info'))
    .map((r) => [r.meta.id, 'warning' as const]),
);

/** The set both evaluators run on every object: default options but every CEL rule enforced, with the facts. */
const EVALUATED = generatePolicies({ settings: ENFORCE_ALL, clusterFacts: FACTS }).objects;
const FACTS_OBJECT = EVALUATED.find((o) => o.kind === 'WindowsClusterFacts')!;

/** The other sets users generate; their policies are judged unless the evaluated set has the same one. */
const VARIANTS: readonly PolicyOptions[] = [
  {},
  { mode: 'warn' },
  { mode: 'audit' },
  { clusterFacts: FACTS },
  { cloud: 'eks' },
  { cloud: 'aks' },
  { cloud: 'gke' },
];

/**
 * The policies of the variant sets that the evaluated set does not hold as they are (a mode changes only the
 * bindings, which the judge does not read; a cloud or the info rules' severity changes a policy), each renamed
 * `v<i>-…` with its binding, so both evaluators run them beside the evaluated set.
 */
function variantObjects(): PolicyObject[] {
  const seen = new Set(EVALUATED.filter(isPolicy).map((p) => JSON.stringify(p)));
  const out: PolicyObject[] = [];
  for (const [i, options] of VARIANTS.entries()) {
    const set = generatePolicies(options).objects;
    for (const p of set.filter(isPolicy)) {
      const key = JSON.stringify(p);
      if (seen.has(key)) continue;
      seen.add(key);
      const name = `v${i}-${p.metadata.name}`;
      out.push({ ...p, metadata: { ...p.metadata, name } });
      for (const b of set.filter(
        (o) => o.kind === `${p.kind}Binding` && (o.spec as Rec).policyName === p.metadata.name,
      )) {
        out.push({ ...b, metadata: { ...b.metadata, name }, spec: { ...(b.spec as Rec), policyName: name } });
      }
    }
  }
  return out;
}

/** What both evaluators run: the evaluated set and the variants' other policies. */
const JUDGED: readonly PolicyObject[] = [...EVALUATED, ...variantObjects()];

interface LabelledCase {
  readonly label: string;
  readonly object: Rec;
  readonly operation: 'CREATE' | 'UPDATE';
}

function objectLabel(source: string, o: Rec): string {
  return `${source} ${String(o.kind)}/${nameOf(o)}`;
}

/** The rules' examples, the corpus, generated pods and RuntimeClasses (a fixed sample), and some UPDATEs. */
function validatingCases(): LabelledCase[] {
  const cases: LabelledCase[] = [];
  const add = (source: string, object: unknown, operation: 'CREATE' | 'UPDATE' = 'CREATE') => {
    if (policiesMatch(object))
      cases.push({ label: objectLabel(source, object as Rec), object: object as Rec, operation });
  };
  for (const rule of celRules()) {
    const examples = readRuleExamples(rule.meta.id);
    for (const [kind, list] of [
      ['failing', examples.failing],
      ['passing', examples.passing],
    ] as const) {
      for (const e of list) for (const o of loadManifests(e.manifests)) add(`${rule.meta.id} ${kind} '${e.title}':`, o);
    }
  }
  const corpus = corpusObjects();
  for (const o of corpus) add('corpus', o);
  // An UPDATE that leaves the pod spec alone is not checked again (matchCondition k8s-windows-spec-changed).
  for (const o of corpus.filter((x) => locatePodSpec(x) !== undefined).slice(0, 20)) add('corpus UPDATE', o, 'UPDATE');
  for (const o of generated(workload, 300)) add('generated', o);
  for (const o of generated(runtimeClass, 60)) add('generated', o);
  return cases;
}

/** The request's namespace: the object's, `default` for a namespaced kind without one, none for a RuntimeClass. */
function namespaceOf(o: Rec): string | undefined {
  if (o.kind === 'RuntimeClass') return undefined;
  const ns = (o.metadata as Rec | undefined)?.namespace;
  return typeof ns === 'string' ? ns : 'default';
}

function judgeCase(c: LabelledCase): ApiserverCelCase {
  const ns = namespaceOf(c.object);
  return {
    object: c.object,
    operation: c.operation,
    ...(c.operation === 'UPDATE' ? { oldObject: c.object } : {}),
    ...(ns === undefined ? {} : { namespace: { metadata: { name: ns } } }),
  };
}

/** What one evaluator says of one case: per policy that matched, the messages of its failed validations. */
type Verdict = Record<string, string[]>;

function bufbuildVerdict(c: LabelledCase): { verdict: Verdict; errors: string[] } {
  const ns = namespaceOf(c.object);
  const result = evaluatePolicies(JUDGED, c.object, {
    operation: c.operation,
    ...(c.operation === 'UPDATE' ? { oldObject: c.object } : {}),
    ...(ns === undefined ? {} : { namespace: ns }),
    params: [FACTS_OBJECT as Rec],
  });
  const verdict: Verdict = Object.fromEntries(result.matched.map((p) => [p, [] as string[]]));
  for (const v of result.violations) (verdict[v.policy] ??= []).push(v.message);
  for (const p of Object.keys(verdict)) verdict[p]!.sort();
  return { verdict, errors: result.errors.map((e) => `${e.policy} ${e.where.slice(0, 80)}: ${e.error}`) };
}

interface Cost {
  readonly policy: string;
  readonly case: string;
  readonly cost: number;
}

describe(`the validating policies (generated objects: K8S_WINDOWS_PROPERTY_SEED=${SAMPLE_SEED})`, () => {
  let evaluated: ApiserverCelResponse;
  let cases: LabelledCase[];

  beforeAll(() => {
    ensureApiserverCel();
    cases = validatingCases();
    evaluated = judge('1.37', JUDGED.filter(isPolicy), { params: [FACTS_OBJECT], cases: cases.map(judgeCase) });
  }, JUDGE_TIMEOUT);

  test('the API server accepts every expression of every set, its TypeChecker finds nothing, nor a typed check through the variables', () => {
    expect(evaluated.policies.map((p) => p.name)).toEqual(JUDGED.filter(isPolicy).map((p) => p.metadata.name));
    // The clouds that word or level a rule differently bring their own -warn policies.
    expect(evaluated.policies.length).toBeGreaterThan(EVALUATED.filter(isPolicy).length);
    expect(findings(evaluated)).toEqual([]);
    // Each policy is checked against every kind it matches.
    const kinds = new Set(evaluated.policies.flatMap((p) => p.checkedKinds));
    expect([...kinds].sort()).toEqual(
      [
        'apps/v1/DaemonSet',
        'apps/v1/Deployment',
        'apps/v1/ReplicaSet',
        'apps/v1/StatefulSet',
        'batch/v1/CronJob',
        'batch/v1/Job',
        'node.k8s.io/v1/RuntimeClass',
        'v1/Pod',
        'v1/ReplicationController',
      ].sort(),
    );
  });

  test('on every example, corpus object and generated object, the API server and @bufbuild/cel give the same violations per policy, and neither errs', () => {
    const judged: Verdict[] = cases.map(() => ({}));
    const judgeErrors: string[] = [];
    for (const r of evaluated.results) {
      const label = cases[r.case]!.label;
      if (r.error !== undefined) judgeErrors.push(`${label} ${r.policy}: ${r.error}`);
      if (!r.matched) continue;
      judged[r.case]![r.policy] = r.violations.map((v) => v.message).sort();
    }
    const mismatches: { object: string; apiserver: Verdict; bufbuild: Verdict }[] = [];
    const bufbuildErrors: string[] = [];
    let failing = 0;
    const rulesFailed = new Set<string>();
    for (const [i, c] of cases.entries()) {
      const { verdict, errors } = bufbuildVerdict(c);
      bufbuildErrors.push(...errors.map((e) => `${c.label} ${e}`));
      if (canonical(verdict) !== canonical(judged[i])) {
        mismatches.push({ object: c.label, apiserver: judged[i]!, bufbuild: verdict });
      }
      const messages = Object.values(judged[i]!).flat();
      if (messages.length > 0) failing++;
      for (const m of messages) rulesFailed.add(/^([a-z0-9-]+): /.exec(m)?.[1] ?? '');
    }
    expect(judgeErrors).toEqual([]);
    expect(bufbuildErrors).toEqual([]);
    expect(mismatches).toEqual([]);
    // Not vacuous: many objects fail, and every CEL rule fails some object in the API server.
    expect(failing).toBeGreaterThan(100);
    expect(
      celRules()
        .filter((r) => !rulesFailed.has(r.meta.id))
        .map((r) => r.meta.id),
    ).toEqual([]);
  });

  test('every evaluation stays within the API server runtime cost budget (build/apiserver-agreement-costs.json)', () => {
    const costs: Cost[] = evaluated.results
      .filter((r) => r.matched && r.cost !== undefined)
      .map((r) => ({ policy: r.policy, case: cases[r.case]!.label, cost: r.cost! }));
    expect(costs.length).toBeGreaterThan(cases.length);
    const byPolicy = new Map<string, Cost[]>();
    for (const c of costs) byPolicy.set(c.policy, [...(byPolicy.get(c.policy) ?? []), c]);
    const summary = [...byPolicy].map(([policy, list]) => {
      const sorted = list.map((c) => c.cost).sort((a, b) => a - b);
      const max = list.reduce((a, b) => (b.cost > a.cost ? b : a));
      return {
        policy,
        evaluations: list.length,
        median: sorted[Math.floor(sorted.length / 2)],
        max: max.cost,
        maxCase: max.case,
      };
    });
    const report = { budgets: evaluated.budgets, summary, costs };
    const out = path.join(__dirname, '..', '..', 'build', 'apiserver-agreement-costs.json');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(
      `runtime cost per evaluation (budget ${evaluated.budgets.runtimeCELCostBudget} per policy):\n${summary
        .map((s) => `  ${s.policy}: ${s.evaluations} evaluations, median ${s.median}, max ${s.max} (${s.maxCase})`)
        .join('\n')}`,
    );
    expect(costs.filter((c) => c.cost > evaluated.budgets.runtimeCELCostBudget)).toEqual([]);
  });
});

/** JSON with every object's keys sorted: the judge and the fixture order fields differently. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    typeof x === 'object' && x !== null && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Rec).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The mutating policies.

const MUTATION_CASES = readMutationCases();

/** Whether lint judges the object's pod Windows (the engine's own facts about it). */
const lintSaysWindows = (o: unknown) => runEngine([o], {}).pods.get(0)?.windows === true;

/** The pod-bearing objects of the corpus and generated ones, as lint judges them: Linux (or no OS), and Windows. */
function podObjects(): { linux: Rec[]; windows: Rec[] } {
  const all = [...corpusObjects(), ...generated(workload, 300)]
    .filter((o) => locatePodSpec(o) !== undefined && policiesMatch(o))
    .map((o) => o as Rec);
  return { linux: all.filter((o) => !lintSaysWindows(o)), windows: all.filter(lintSaysWindows) };
}

interface MutationRun {
  /** The fixture's cases after the policies, by case name. */
  readonly outputs: Map<string, Rec>;
  readonly findings: string[];
  readonly errors: string[];
  /** Linux objects a policy changed. */
  readonly linuxChanged: string[];
  /** Windows objects some policy changed (with the facts): the run is not vacuous. */
  readonly windowsChanged: number;
  /** Policies that would change an output again (the API server would reinvoke them). */
  readonly notFixed: string[];
  readonly linuxCount: number;
}

/**
 * The fixture through the API server's mutation code: the plain policies, then the `-cluster` ones on what they
 * left (each with the case's own facts object), then every policy once more on the outputs, which must change
 * nothing; the Linux objects go through every policy with and without facts.
 */
function runMutations(version: 'v1' | 'v1beta1', kubernetesVersion: Minor): MutationRun {
  const policies = generatePolicies({ mutating: true, mutatingVersion: version, kubernetesVersion })
    .objects.filter((o) => o.kind === 'MutatingAdmissionPolicy')
    .map((o) => o as Rec);
  const plain = policies.filter((p) => !nameOf(p).endsWith('-cluster'));
  const cluster = policies.filter((p) => nameOf(p).endsWith('-cluster'));
  const params = MUTATION_CASES.flatMap((c, i) => (c.facts ? [clusterFactsObject(c.facts, `facts-${i}`)] : []));
  const findingsOut: string[] = [];
  const errors: string[] = [];
  const asCases = (objects: readonly Rec[]): ApiserverCelCase[] =>
    objects.map((object, i) => {
      const c = MUTATION_CASES[i]!;
      return {
        object,
        operation: c.operation ?? 'CREATE',
        ...(c.oldObject !== undefined ? { oldObject: c.oldObject } : {}),
        namespace: { metadata: { name: 'default' } },
      };
    });
  const step = (group: Rec[], objects: Rec[]): Rec[] => {
    const response = judge(kubernetesVersion, group, { params, cases: asCases(objects) });
    findingsOut.push(...findings(response));
    const next = [...objects];
    for (const r of response.results) {
      if (r.error !== undefined) errors.push(`${MUTATION_CASES[r.case]!.name} ${r.policy}: ${r.error}`);
      // A -cluster policy reads the case's own facts object (none: parameterNotFoundAction Allow skips it).
      if (r.param !== undefined && r.param !== `facts-${r.case}`) continue;
      if (r.matched && r.patched !== undefined) next[r.case] = r.patched as Rec;
    }
    return next;
  };
  const inputs = MUTATION_CASES.map((c) => c.input);
  const outputs = step(cluster, step(plain, inputs));
  const again = step(policies, outputs);
  const notFixed = MUTATION_CASES.filter((_, i) => canonical(again[i]) !== canonical(outputs[i])).map((c) => c.name);
  // The corpus's and generated pods, Linux then Windows, each policy once with the facts.
  const { linux, windows } = podObjects();
  const objects = [...linux, ...windows];
  const response = judge(kubernetesVersion, policies, {
    params: [clusterFactsObject(FACTS, 'facts')],
    cases: objects.map((object) => ({
      object,
      operation: 'CREATE' as const,
      namespace: { metadata: { name: namespaceOf(object) ?? 'default' } },
    })),
  });
  findingsOut.push(...findings(response));
  const linuxChanged: string[] = [];
  const windowsChanged = new Set<number>();
  for (const r of response.results) {
    const object = objects[r.case]!;
    if (r.error !== undefined) errors.push(`${objectLabel('pods', object)} ${r.policy}: ${r.error}`);
    if (!r.matched || r.patched === undefined || canonical(r.patched) === canonical(withNamespace(object))) continue;
    if (r.case < linux.length) linuxChanged.push(`${objectLabel('', object)} by ${r.policy}`);
    else windowsChanged.add(r.case);
  }
  return {
    outputs: new Map(MUTATION_CASES.map((c, i) => [c.name, outputs[i]!])),
    findings: findingsOut,
    errors,
    linuxChanged,
    windowsChanged: windowsChanged.size,
    notFixed,
    linuxCount: linux.length,
  };
}

/** The object as the judge admits it: in its request's namespace. */
function withNamespace(o: Rec): Rec {
  return { ...o, metadata: { ...(o.metadata as Rec), namespace: namespaceOf(o) ?? 'default' } };
}

describe.each([
  ['v1', '1.37'],
  ['v1beta1', '1.35'],
  ['v1beta1', '1.34'],
] as const)('the mutating policies (%s) on Kubernetes %s', (version, kubernetesVersion) => {
  let run: MutationRun;
  beforeAll(() => {
    ensureApiserverCel();
    run = runMutations(version, kubernetesVersion);
  }, JUDGE_TIMEOUT);

  test('the API server accepts every expression, its TypeChecker finds nothing, nor a typed check through the variables', () => {
    expect([...new Set(run.findings)]).toEqual([]);
  });

  test('each fixture case comes out as test/fixtures/policies/mutations.yaml expects (what fix writes), with no error and nothing left to reinvoke', () => {
    expect(run.errors).toEqual([]);
    const wrong = MUTATION_CASES.filter((c) => canonical(run.outputs.get(c.name)) !== canonical(c.expected)).map(
      (c) => ({ case: c.name, apiserver: run.outputs.get(c.name), expected: c.expected }),
    );
    expect(wrong).toEqual([]);
    expect(run.notFixed).toEqual([]);
  });

  test('no policy changes a pod lint does not judge Windows (corpus and generated pods, with the facts)', () => {
    expect(run.linuxCount).toBeGreaterThan(25);
    expect(run.linuxChanged).toEqual([]);
    // Not vacuous: the same run changes Windows pods.
    expect(run.windowsChanged).toBeGreaterThan(10);
  });
});
