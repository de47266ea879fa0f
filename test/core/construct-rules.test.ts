/**
 * Issue 25: a construct refuses with the rule module's own finding. Every failing example of a rule the constructs
 * run (`refusedByConstructs`), fed through `toWindowsPodSpec` (what the cdk8s workloads and Pulumi components run on
 * the pod they emit), gives the same rule id, path and message as lint gives for that object: an error as a refusal,
 * a lower severity as a warning.
 */
import { loadManifests, validateManifests } from 'k8s-windows';
import { RULE_MODULES, type RuleModule } from '../../lib/core/rules';
import { toWindowsPodSpec, type WindowsWarning } from '../../lib/core/pod-spec';
import { WindowsValidationError } from '../../lib/core/errors';
import { locatePodSpec } from '../../lib/core/workloads';
import { readRuleExamples } from '../../scripts/rule-examples';

const CONSTRUCT_RULES = (RULE_MODULES as readonly RuleModule[]).filter((r) => r.meta.refusedByConstructs === true);

type Seen = { ruleId?: string; path: string; message: string; severity: 'refused' | 'warned' };

/** What the construct side says about one pod spec, for `ruleId`. */
function throughConstruct(spec: unknown, path: string, ruleId: string): Seen[] {
  const windowsOptions = (spec as { securityContext?: { windowsOptions?: { hostProcess?: unknown } } }).securityContext
    ?.windowsOptions;
  const warnings: WindowsWarning[] = [];
  let refused: readonly { ruleId?: string; path: string; message: string }[] = [];
  try {
    toWindowsPodSpec(spec as never, {
      pathPrefix: path,
      hostProcess: windowsOptions?.hostProcess === true,
      // The pod as written: the Windows container defaults would change what the memory rule judges.
      containerDefaults: false,
      onWarning: (w) => warnings.push(w),
    });
  } catch (err) {
    if (!(err instanceof WindowsValidationError)) throw err;
    refused = err.issues;
  }
  return [
    ...refused.map((i) => ({ ruleId: i.ruleId, path: i.path, message: i.message, severity: 'refused' as const })),
    ...warnings.map((w) => ({ ruleId: w.ruleId, path: w.path, message: w.message, severity: 'warned' as const })),
  ].filter((x) => x.ruleId === ruleId);
}

/** The value at an API path (`spec.containers[0].securityContext.privileged`) of `obj`. */
function valueAt(obj: unknown, path: string): unknown {
  let node: unknown = obj;
  for (const seg of path.split(/\.|\[(\d+)\]/).filter((x) => x !== undefined && x !== '')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/**
 * What a construct never emits, so never refuses: a forbidden field that asks for nothing (`false`, an empty list or
 * object) is dropped, as `toWindowsPodSpec` documents (cdk8s-plus writes such defaults on its own).
 */
const dropped = (obj: unknown, path: string, ruleId: string): boolean => {
  const v = valueAt(obj, path);
  return (
    ruleId === 'windows-forbidden-field' &&
    (v === false ||
      (Array.isArray(v) && v.length === 0) ||
      (typeof v === 'object' && v !== null && Object.keys(v).length === 0))
  );
};

test('the constructs run some rules', () => {
  expect(CONSTRUCT_RULES.map((r) => r.meta.id)).toEqual(
    expect.arrayContaining(['windows-forbidden-field', 'windows-host-port', 'windows-memory-request-limit']),
  );
});

describe.each(CONSTRUCT_RULES.map((rule) => [rule.meta.id, rule] as const))('%s', (id, rule) => {
  // Constructs target the newest Kubernetes: an example that judges an older target is lint's alone.
  const examples = readRuleExamples(id).failing.filter((e) => e.options?.kubernetesVersion === undefined);

  test.each(examples.map((e) => [e.title, e] as const))('%s', (_title, example) => {
    const objects = loadManifests(example.manifests);
    const findings = validateManifests(objects, example.options ?? {}).filter(
      (d) => d.ruleId === id && !dropped(objects[d.location?.object ?? 0], d.path, id),
    );
    const seen: Seen[] = [];
    objects.forEach((obj) => {
      const loc = locatePodSpec(obj);
      if (loc) seen.push(...throughConstruct(JSON.parse(JSON.stringify(loc.spec)), loc.path, id));
    });
    expect(seen).toEqual(
      findings.map((d) => ({
        ruleId: d.ruleId,
        path: d.path,
        message: d.message,
        severity: d.severity === 'error' ? 'refused' : 'warned',
      })),
    );
    expect(rule.meta.id).toBe(id);
  });
});
