/**
 * The real-world corpus with the registry facts of its images (images.yaml, served by a real docker-registry on
 * loopback) holds the engine to its judgements (test/fixtures/realworld/judgements.yaml), as the default run does in
 * realworld.test.ts; the corpus figures of both runs in docs/measured.md are today's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecordedImages, withCorpusRegistry } from '../../../scripts/corpus-images';
import { corpusReport, lintCorpus, readJudgements } from '../../../scripts/corpus';
import { describeCorpusRun, type CorpusOutcome } from './realworld-checks';

const plainFindings = lintCorpus();
const runs: Record<'plain' | 'resolved', CorpusOutcome> = {
  plain: { findings: plainFindings, report: corpusReport(plainFindings, readJudgements()) },
  resolved: { findings: [], report: corpusReport([], readJudgements(), 'resolved') },
};

beforeAll(async () => {
  const findings = await withCorpusRegistry((lookups) => lintCorpus(lookups));
  runs.resolved = { findings, report: corpusReport(findings, readJudgements(), 'resolved') };
}, 120_000);

describeCorpusRun('resolved', () => runs.resolved);

test('precision and recall meet the targets (85% and 90%) with image resolution', () => {
  expect(runs.resolved.report.precision).toBeGreaterThanOrEqual(0.85);
  expect(runs.resolved.report.recall).toBeGreaterThanOrEqual(0.9);
  // Image resolution reports at least what a default run does.
  expect(runs.resolved.report.reportedReal).toBeGreaterThanOrEqual(runs.plain.report.reportedReal);
});

test("docs/measured.md's corpus figures are today's", () => {
  const text = readFileSync(join(__dirname, '../../../docs/measured.md'), 'utf8');
  // Prose is compared with white space folded (the page wraps it); a miss names only the phrase.
  const folded = text.replace(/\s+/g, ' ');
  const missing = (phrases: string[]) => phrases.filter((phrase) => !folded.includes(phrase));
  const row = (label: string) => text.split('\n').find((l) => l.startsWith(`| ${label} |`));
  const [p, r] = [runs.plain.report, runs.resolved.report];
  const pct = (x: number) => `${(x * 100).toFixed(1).replace(/\.0$/, '')}%`;
  const info = (run: 'plain' | 'resolved') => runs[run].findings.filter((f) => f.diagnostic.severity === 'info').length;
  const images = readRecordedImages();
  const known = images.filter((i) => i.unrecorded === undefined).length;
  expect(
    missing([
      `holds ${p.files} public manifests`,
      `registry facts of ${known} of its ${images.length} image references`,
      `the other ${images.length - known} (`,
    ]),
  ).toEqual([]);
  expect(row('errors and warnings reported')).toBe(`| errors and warnings reported | ${p.reported} | ${r.reported} |`);
  expect(row('of those, real problems (precision)')).toBe(
    `| of those, real problems (precision) | ${p.reportedReal} (${pct(p.precision)}) | ${r.reportedReal} (${pct(r.precision)}) |`,
  );
  expect(row('real problems known in the corpus that are reported (recall)')).toBe(
    `| real problems known in the corpus that are reported (recall) | ${p.reportedReal} of ${p.realKnown} (${pct(p.recall)}) | ${r.reportedReal} of ${r.realKnown} (${pct(r.recall)}) |`,
  );
  expect(row('findings at info (advice)')).toBe(
    `| findings at info (advice) | ${info('plain')} | ${info('resolved')} |`,
  );
});
