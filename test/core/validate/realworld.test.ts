/**
 * The real-world corpus holds the engine to its judgements (test/fixtures/realworld/judgements.yaml) in a default
 * run: every finding judged, nothing judged wrong or advice at warning or error, nothing judged real lost. The run
 * with the registry facts of its images, and the figures of both in docs/measured.md, are in realworld.e2e.test.ts.
 */
import { corpusImageReferences, corpusReport, lintCorpus, readJudgements } from '../../../scripts/corpus';
import { readRecordedImages } from '../../../scripts/corpus-images';
import { describeCorpusRun, type CorpusOutcome } from './realworld-checks';

const findings = lintCorpus();
const plain: CorpusOutcome = { findings, report: corpusReport(findings, readJudgements()) };

test('the corpus holds at least 40 manifests', () => {
  expect(plain.report.files).toBeGreaterThanOrEqual(40);
});

describeCorpusRun('plain', () => plain);

test('precision meets the target (85%) without image resolution', () => {
  expect(plain.report.precision).toBeGreaterThanOrEqual(0.85);
});

test('images.yaml names every image reference of the corpus: its facts, or why it has none', () => {
  const recorded = new Set(readRecordedImages().map((i) => i.image));
  const references = corpusImageReferences();
  expect(references.filter((r) => !recorded.has(r))).toEqual([]);
  expect([...recorded].filter((r) => !references.includes(r))).toEqual([]);
});
