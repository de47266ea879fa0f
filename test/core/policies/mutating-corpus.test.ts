/**
 * The mutating policies on every pod-bearing object of the real-world corpus, with and without cluster facts: a pod
 * lint does not judge Windows is never changed, and every field a policy changes is written with the value `fix`
 * writes there (the policies make a subset of fix's changes, never another one).
 */
import { stringify } from 'yaml';
import { fixManifests } from '../../../lib/core/fix';
import { mutatingPolicies } from '../../../lib/core/policies/mutating';
import { clusterFactsObject } from '../../../lib/core/policies/cluster-facts';
import type { ClusterFacts } from '../../../lib/core/policies/types';
import { loadManifests } from '../../../lib/core/validate/loader';
import { validateManifests } from '../../../lib/core/validate';
import { runEngine } from '../../../lib/core/validate/engine';
import { locatePodSpec } from '../../../lib/core/workloads';
import { corpusObjects } from '../../../scripts/corpus';
import { evaluateMutations } from '../../helpers/map-eval';
import { fixOptionsFor } from '../../helpers/policy-mutations';

type Rec = Record<string, unknown>;

const FACTS: ClusterFacts = {
  pools: [
    {
      name: 'win2022',
      provider: 'eks',
      release: '2022',
      taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
    },
  ],
  runtimeClasses: [{ name: 'windows-2022', handler: 'runhcs-wcow-process', build: '10.0.20348' }],
};

/** The fields the policies may change, read from a pod spec. */
const FIELDS = ['os', 'nodeSelector', 'tolerations', 'runtimeClassName'] as const;

function specOf(obj: unknown): Rec {
  return (locatePodSpec(obj)?.spec ?? {}) as Rec;
}

/** Whether lint judges the pod Windows (the engine's own facts about it). */
function lintSaysWindows(obj: unknown): boolean {
  return runEngine([obj], {}).pods.get(0)?.windows === true;
}

/** What a policy wrote into one field that `fix` did not write there, as sentences (none when it agrees). */
function disagreements(field: (typeof FIELDS)[number], before: unknown, after: unknown, fixed: unknown): string[] {
  switch (field) {
    case 'nodeSelector': {
      // The policies add one key; fix may add more to the same map (a build pin).
      const b = (before ?? {}) as Rec;
      const a = (after ?? {}) as Rec;
      const f = (fixed ?? {}) as Rec;
      return Object.keys(a)
        .filter((k) => b[k] !== a[k] && f[k] !== a[k])
        .map((k) => `nodeSelector[${k}] is ${JSON.stringify(a[k])}, fix writes ${JSON.stringify(f[k])}`);
    }
    case 'tolerations': {
      const b = ((before ?? []) as unknown[]).map((t) => JSON.stringify(t));
      const f = ((fixed ?? []) as unknown[]).map((t) => JSON.stringify(t));
      return ((after ?? []) as unknown[])
        .map((t) => JSON.stringify(t))
        .filter((t) => !b.includes(t) && !f.includes(t))
        .map((t) => `toleration ${t} added, fix does not add it`);
    }
    default:
      return JSON.stringify(fixed) === JSON.stringify(after)
        ? []
        : [`${field} is ${JSON.stringify(after)}, fix writes ${JSON.stringify(fixed)}`];
  }
}

const objects = corpusObjects().filter((o) => locatePodSpec(o) !== undefined);

test('the corpus has pods of both OSes', () => {
  expect(objects.length).toBeGreaterThan(50);
  expect(validateManifests(objects).length).toBeGreaterThan(0);
});

describe.each([
  ['without cluster facts', undefined],
  ['with cluster facts', FACTS],
] as const)('%s', (_name, facts) => {
  const policies = mutatingPolicies({ mutating: true });
  const params = facts ? [clusterFactsObject(facts)] : [];

  test('Linux pods are never changed; what changes is what fix writes there', () => {
    const problems: string[] = [];
    let changed = 0;
    for (const obj of objects) {
      const o = obj as Rec;
      const where = `${String(o.kind)}/${String((o.metadata as Rec | undefined)?.name)}`;
      const result = evaluateMutations(policies, obj, { params, namespace: 'apps' });
      problems.push(...result.errors.map((e) => `${where}: ${e}`));
      const before = specOf(obj);
      const after = specOf(result.object);
      const touched = FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
      if (touched.length === 0) continue;
      changed++;
      if (!lintSaysWindows(obj))
        problems.push(`${where}: changed ${touched.join(', ')} of a pod lint does not judge Windows`);
      const fixed = specOf(loadManifests(fixManifests(stringify(obj), fixOptionsFor(facts)).text)[0]);
      for (const f of touched)
        problems.push(...disagreements(f, before[f], after[f], fixed[f]).map((d) => `${where}: ${d}`));
    }
    expect(problems).toEqual([]);
    // Not vacuous: the corpus has Windows pods the policies fix.
    expect(changed).toBeGreaterThan(0);
  });
});
