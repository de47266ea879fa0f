/**
 * Every rule with a CEL form is held to its TypeScript check (issue 26 §4): on each failing and passing example of
 * the rule, and on every object of the real-world corpus, the generated policy (run by @bufbuild/cel) and the
 * engine (on the object alone) give the same verdict, under every cloud. Property-generated pods are in
 * differential.property.test.ts.
 */
import { loadManifests } from 'k8s-windows';
import { corpusObjects } from '../../../scripts/corpus';
import { readRuleExamples } from '../../../scripts/rule-examples';
import { CEL_RULE_IDS, differential, type Mismatch } from './differential';
import type { VapError } from '../../helpers/vap-eval';

test('the rules the policies enforce have CEL forms', () => {
  expect(CEL_RULE_IDS.length).toBeGreaterThan(0);
});

describe.each(CEL_RULE_IDS.map((id) => [id]))('%s', (id) => {
  test('its examples get the same verdict from the policy as from lint, for every CEL rule', () => {
    const examples = readRuleExamples(id);
    const mismatches: Mismatch[] = [];
    const errors: VapError[] = [];
    for (const [kind, list] of [
      ['failing', examples.failing],
      ['passing', examples.passing],
    ] as const) {
      for (const e of list) {
        for (const object of loadManifests(e.manifests)) {
          const found = differential(object, `${id} ${kind} '${e.title}':`);
          mismatches.push(...found.mismatches);
          errors.push(...found.errors);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('its failing examples fail the policy for it (unless the finding needs another object)', () => {
    const examples = readRuleExamples(id);
    const failed = examples.failing.filter((e) =>
      loadManifests(e.manifests).some((o) => differential(o, '', [id]).bothFail.includes(id)),
    );
    expect(failed.length).toBeGreaterThan(0);
  });
});

test('every object of the real-world corpus gets the same verdicts from the policies as from lint', () => {
  const mismatches: Mismatch[] = [];
  const errors: VapError[] = [];
  const failing = new Map<string, number>();
  for (const object of corpusObjects()) {
    const found = differential(object, 'corpus');
    mismatches.push(...found.mismatches);
    errors.push(...found.errors);
    for (const rule of found.bothFail) failing.set(rule, (failing.get(rule) ?? 0) + 1);
  }
  expect(mismatches).toEqual([]);
  expect(errors).toEqual([]);
  // Not a vacuous agreement: the corpus's Windows workloads fail the scheduling rules on both sides.
  expect(failing.get('windows-toleration-missing')).toBeGreaterThan(0);
  expect(failing.get('windows-os-unset')).toBeGreaterThan(0);
  expect(failing.get('windows-node-selector-missing')).toBeGreaterThan(0);
});
