/**
 * `scanOffset` (a finding's field placed from the lines along its path) answers what js-yaml's node index answers,
 * or nothing: on every field of the real-world corpus, and on the forms it must leave to the index. That the
 * positions equal the `yaml` path's is held by fast-load.test.ts and fast-load.property.test.ts, which go through it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fastDocumentOf, indexOffsets, loadManifestsWithErrors, parsePath } from '../../../lib/core/validate/loader';
import { scanOffset } from '../../../lib/core/validate/path-scan';
import { fieldPaths } from './field-paths';

const CORPUS = path.join(__dirname, '../../fixtures/realworld');

/** Every field of every object of `text` (and one absent field per mapping), scanned and indexed. */
function compare(text: string): { answered: number; total: number } {
  let answered = 0;
  let total = 0;
  for (const o of loadManifestsWithErrors(text).objects) {
    const fast = fastDocumentOf(o as object);
    if (fast === undefined) continue;
    const { doc, base } = fast;
    const indexed = indexOffsets(doc.text);
    for (const p of ['', ...fieldPaths(o)]) {
      const segments = [...base, ...parsePath(p)];
      const scanned = scanOffset(doc, segments);
      total++;
      if (scanned === undefined) continue;
      answered++;
      expect([p, scanned]).toEqual([p, indexed(segments)]);
    }
  }
  return { answered, total };
}

describe('scanOffset', () => {
  const files = readdirSync(CORPUS).filter((f) => /\.(ya?ml|json)$/.test(f));

  test('answers as the index on every field of the real-world corpus, and for nearly all of them', () => {
    let answered = 0;
    let total = 0;
    for (const file of files) {
      const r = compare(readFileSync(path.join(CORPUS, file), 'utf8'));
      answered += r.answered;
      total += r.total;
    }
    // The corpus is block style: the index is built for the few fields behind an anchor, a flow collection or JSON.
    expect(answered / total).toBeGreaterThan(0.9);
  });
});
