/**
 * The cloud rules' examples (lib/core/rules/<id>.examples.yaml), run where the cloud checks live: provider
 * resources through the policy pack's node-pool and cluster checks, k8s-windows components built under Pulumi
 * mocks (their warnings and rule-owned refusals read from the findings sink). A failing example yields exactly its findings, at their paths
 * and severities; a passing one none of the rule.
 */
import * as pulumi from '@pulumi/pulumi';
import { parseAllDocuments } from 'yaml';
import { RULES_BY_ID } from '../../lib/core/validate/rules';
import { checksOf, RULE_MODULES, type RuleModule } from '../../lib/core/rules';
import { readRuleExamples } from '../../scripts/rule-examples';
import { clusterFindings, nodePoolFindings } from '../../lib/pulumi/policy/node-pools';
import type * as eksModule from 'k8s-windows/pulumi/eks';
import type * as aksModule from 'k8s-windows/pulumi/aks';
import type * as gkeModule from 'k8s-windows/pulumi/gke';
import { mockPulumi } from './mocks';

const { findings } = mockPulumi((type, name) => {
  if (type === 'aws:iam/role:Role') return { arn: `arn:aws:iam::123456789012:role/${name}`, name };
  if (type === 'aws:eks/nodeGroup:NodeGroup') return { resources: [{ autoscalingGroups: [{ name: `eks-${name}` }] }] };
  return {};
});

let eks: typeof eksModule;
let aks: typeof aksModule;
let gke: typeof gkeModule;
beforeAll(async () => {
  // Load after setMocks so the provider modules register against the mocked runtime.
  eks = await import('k8s-windows/pulumi/eks');
  aks = await import('k8s-windows/pulumi/aks');
  gke = await import('k8s-windows/pulumi/gke');
});

interface Finding {
  readonly ruleId: string;
  readonly messageId?: string;
  readonly severity: string;
  readonly path: string;
}

type Args = Record<string, unknown>;

/** The components an example can build, by type token. */
function build(type: string, name: string, args: Args): unknown {
  switch (type) {
    case 'k8s-windows:eks:WindowsNodePool':
      return new eks.WindowsNodePool(name, args as never);
    case 'k8s-windows:eks:SelfManagedWindowsNodePool':
      return new eks.SelfManagedWindowsNodePool(name, args as never);
    case 'k8s-windows:eks:WindowsClusterPrerequisites':
      return new eks.WindowsClusterPrerequisites(name, args as never);
    case 'k8s-windows:aks:WindowsNodePool':
      return new aks.WindowsNodePool(name, args as never);
    case 'k8s-windows:gke:WindowsNodePool':
      return new gke.WindowsNodePool(name, args as never);
    default:
      throw new Error(`no component ${type} for examples`);
  }
}

function findingsOf(manifests: string): Finding[] {
  const docs = parseAllDocuments(manifests).map(
    (d) => d.toJS() as { type: string; name?: string; props?: Args; args?: Args },
  );
  const resources = docs.filter((d) => !d.type.startsWith('k8s-windows:'));
  const out: Finding[] = [];
  for (const r of resources) out.push(...nodePoolFindings(r.type, r.props ?? {}));
  const stack = resources.map((r, i) => ({
    type: r.type,
    name: r.name ?? `r${i}`,
    urn: `urn:${i}`,
    props: r.props ?? {},
  }));
  out.push(...clusterFindings(stack).map((x) => x.finding));
  const before = findings.length;
  docs.forEach((d, i) => {
    if (!d.type.startsWith('k8s-windows:')) return;
    // A component refuses with an InputPropertiesError; the refusals its rule modules own are in the sink too.
    try {
      build(d.type, d.name ?? `c${i}`, d.args ?? {});
    } catch (e) {
      if (!pulumi.InputPropertiesError.isInstance(e)) throw e;
    }
  });
  out.push(...findings.slice(before));
  return out;
}

/** Messages no example shows, with why; each is checked by a test of its own below. */
const WITHOUT_EXAMPLE: Readonly<Record<string, readonly string[]>> = {};

const CLOUD_RULES = (RULE_MODULES as readonly RuleModule[]).filter((r) => checksOf(r).some((c) => c.scope === 'cloud'));

test('the cloud rules are in the catalogue', () => {
  expect(CLOUD_RULES.length).toBeGreaterThan(20);
  for (const r of CLOUD_RULES) expect(RULES_BY_ID.get(r.meta.id)).toEqual(r.meta);
});

describe.each(CLOUD_RULES.map((rule) => [rule.meta.id, rule] as const))('%s', (id, rule) => {
  const examples = readRuleExamples(id);
  const severityOf = (c?: string) =>
    c === undefined ? rule.meta.defaultSeverity : rule.meta.cases?.find((x) => x.name === c)?.severity;

  // An alias (a broad id split into specific rules) is named by the findings of the rules it covers.
  const named = (f: Finding) => f.ruleId === id || (rule.meta.covers ?? []).includes(f.ruleId);

  test.each(examples.failing.map((e) => [e.title, e] as const))('fails: %s', (_title, example) => {
    const found = findingsOf(example.manifests).filter(named);
    expect(found.map((f) => [f.path, f.messageId, f.severity])).toEqual(
      example.findings.map((f) => [f.path, f.messageId, severityOf(f.case)]),
    );
  });

  test.each(examples.passing.map((e) => [e.title, e] as const))('passes: %s', (_title, example) => {
    expect(findingsOf(example.manifests).filter(named)).toEqual([]);
  });

  // As for the manifest rules (test/core/rule-messages.test.ts): eslint's meta.messages, by id.
  test('every finding of its failing examples names a message its module declares, and each is used', () => {
    const declared = Object.keys(rule.messages ?? {});
    if (rule.meta.covers !== undefined) {
      // An alias reports nothing of its own: its findings are those of the rules it covers.
      expect(declared).toEqual([]);
      return;
    }
    expect(declared.length).toBeGreaterThan(0);
    const used = new Set<string | undefined>();
    for (const example of examples.failing) {
      for (const f of findingsOf(example.manifests).filter((x) => x.ruleId === id)) {
        expect(declared).toContain(f.messageId);
        used.add(f.messageId);
      }
    }
    // A declared message no example shows is either dead or untested.
    expect(declared.filter((m) => !used.has(m))).toEqual(WITHOUT_EXAMPLE[id] ?? []);
  });

  test('every case has an example', () => {
    for (const c of rule.meta.cases ?? []) {
      expect(examples.failing.some((e) => e.findings.some((f) => f.case === c.name))).toBe(true);
    }
  });
});
