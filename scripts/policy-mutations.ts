/**
 * Writes `expected` of every case in test/fixtures/policies/mutations.yaml: `fixManifests` on the input with the
 * target the case's facts amount to (`fix: same`), or the input unchanged (`fix: differs`: the policies leave it,
 * `note` says what `fix` does besides). Run `tsx scripts/policy-mutations.ts` after adding a case; the unit test
 * fails while the file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument, stringify } from 'yaml';
import { fixManifests } from '../lib/core/fix';
import { loadManifests } from '../lib/core/validate/loader';
import { fixOptionsFor, MUTATIONS_FIXTURE, type MutationCase } from '../test/helpers/policy-mutations';

/** What the policies should make of a case's input: what `fix` makes of it, or (differs) the input. */
export function expectedFor(c: Pick<MutationCase, 'fix' | 'facts' | 'input'>): Record<string, unknown> {
  if (c.fix === 'differs') return c.input;
  const fixed = fixManifests(stringify(c.input), fixOptionsFor(c.facts));
  return loadManifests(fixed.text)[0] as Record<string, unknown>;
}

if (require.main === module) {
  const doc = parseDocument(readFileSync(MUTATIONS_FIXTURE, 'utf8'));
  const cases = doc.toJS().cases as MutationCase[];
  cases.forEach((c, i) => doc.setIn(['cases', i, 'expected'], doc.createNode(expectedFor(c))));
  writeFileSync(MUTATIONS_FIXTURE, doc.toString({ lineWidth: 0 }));
  console.log(`${cases.length} cases written to ${MUTATIONS_FIXTURE}`);
}
