/**
 * Issue 25: a construct refuses with the rule module's own finding. Every failing example of a rule the constructs
 * run (`refusedByConstructs`), fed through `toWindowsPodSpec` (what the cdk8s workloads and Pulumi components run on
 * the pod they emit), gives the same rule id, path and message as lint gives for that object: an error as a refusal,
 * a lower severity as a warning.
 */
import { loadManifests, validateManifests } from 'k8s-windows';
import { WINDOWS_BUILD_LABEL } from '../../lib/core/kube';
import { releaseForBuild, releaseInfo, type WindowsRelease } from '../../lib/core/releases';
import type { ImageLookups } from '../../lib/core/model/image-facts';
import { RULE_MODULES, type RuleModule } from '../../lib/core/rules';
import { CONSTRUCT_RULE_MODULES } from '../../lib/core/rules/refused-by-constructs';
import { toWindowsPodSpec, type WindowsWarning } from '../../lib/core/pod-spec';
import { WindowsValidationError } from '../../lib/core/errors';
import { locatePodSpec } from '../../lib/core/workloads';
import { readRuleExamples } from '../../scripts/rule-examples';

const CONSTRUCT_RULES = (RULE_MODULES as readonly RuleModule[]).filter((r) => r.meta.refusedByConstructs === true);

type Seen = { ruleId?: string; path: string; message: string; severity: 'refused' | 'warned' };
type Spec = {
  os?: { name?: string };
  nodeSelector?: Record<string, string>;
  securityContext?: { windowsOptions?: { hostProcess?: unknown } };
};

/** What the construct side says about one pod spec, for `ruleId`, on nodes of `release`. */
function throughConstruct(
  spec: Spec,
  path: string,
  ruleId: string,
  release: WindowsRelease,
  images: ImageLookups | undefined,
): Seen[] {
  const warnings: WindowsWarning[] = [];
  let refused: readonly { ruleId?: string; path: string; message: string }[] = [];
  try {
    toWindowsPodSpec(spec as never, {
      pathPrefix: path,
      release,
      hostProcess: spec.securityContext?.windowsOptions?.hostProcess === true,
      // The pod as written: the Windows container defaults would change what the memory rule judges.
      containerDefaults: false,
      ...(images !== undefined ? { images } : {}),
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
function dropped(obj: unknown, path: string, ruleId: string): boolean {
  if (ruleId !== 'windows-forbidden-field') return false;
  const v = valueAt(obj, path);
  return (
    v === false ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && Object.keys(v).length === 0)
  );
}

test('the constructs run some rules', () => {
  expect(CONSTRUCT_RULES.map((r) => r.meta.id)).toEqual(
    expect.arrayContaining(['windows-forbidden-field', 'windows-host-port', 'windows-memory-request-limit']),
  );
});

describe.each(CONSTRUCT_RULES.map((rule) => [rule.meta.id, rule] as const))('%s', (id, rule) => {
  // Constructs target the newest Kubernetes: an example that judges an older target is lint's alone.
  const examples = readRuleExamples(id).failing.filter((e) => e.options?.kubernetesVersion === undefined);

  test.each(examples.map((e) => [e.title, e] as const))('%s', (_title, example) => {
    const images = example.options?.images;
    const seen: Seen[] = [];
    const expected: Seen[] = [];
    let windowsPods = 0;
    for (const obj of loadManifests(example.manifests)) {
      const loc = locatePodSpec(obj);
      const spec = loc?.spec as Spec | undefined;
      // Constructs build Windows pods only.
      if (!loc || !spec || spec.os?.name === 'linux' || spec.nodeSelector?.['kubernetes.io/os'] === 'linux') continue;
      windowsPods++;
      // The construct pins the pod to its nodes (the pod's own build label, else Windows Server 2022): lint judges
      // the object so pinned, as the construct would emit it.
      const pinned = spec.nodeSelector?.[WINDOWS_BUILD_LABEL];
      const release = (pinned !== undefined ? releaseForBuild(String(pinned)) : undefined) ?? '2022';
      const emitted = JSON.parse(JSON.stringify(obj)) as Record<string, unknown>;
      const emittedSpec = locatePodSpec(emitted)!.spec as Spec;
      emittedSpec.os = { name: 'windows' };
      emittedSpec.nodeSelector = { ...emittedSpec.nodeSelector, [WINDOWS_BUILD_LABEL]: releaseInfo(release).build };
      for (const d of validateManifests([emitted], example.options ?? {})) {
        if (d.ruleId !== id || dropped(emitted, d.path, id)) continue;
        expected.push({
          ruleId: d.ruleId,
          path: d.path,
          message: d.message,
          severity: d.severity === 'error' ? 'refused' : 'warned',
        });
      }
      seen.push(...throughConstruct(JSON.parse(JSON.stringify(spec)) as Spec, loc.path, id, release, images));
    }
    expect(seen).toEqual(expected);
    // An example whose pods are all Linux pods is lint's alone; any other fails through the construct too.
    if (windowsPods > 0) expect(expected.length).toBeGreaterThan(0);
    expect(rule.meta.refusedByConstructs).toBe(true);
  });
});

test('the constructs load exactly the rule modules that opt in (refusedByConstructs), in the registry order', () => {
  expect(CONSTRUCT_RULE_MODULES.map((r) => r.meta.id)).toEqual(CONSTRUCT_RULES.map((r) => r.meta.id));
  expect(CONSTRUCT_RULE_MODULES.every((r, i) => r === CONSTRUCT_RULES[i])).toBe(true);
});
