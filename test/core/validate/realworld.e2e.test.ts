/**
 * The real-world corpus holds the engine to its judgements (test/fixtures/realworld/judgements.yaml): every
 * finding judged, nothing judged wrong or advice at warning or error, nothing judged real lost; once as a default
 * run, once with the registry facts of its images (images.yaml, served by a real docker-registry on loopback).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecordedImages, withCorpusRegistry } from '../../../scripts/corpus-images';
import {
  corpusImageReferences,
  corpusReport,
  findingKey,
  lintCorpus,
  readJudgements,
  type CorpusReport,
  type Finding,
} from '../../../scripts/corpus';

const plainFindings = lintCorpus();
const runs: Record<'plain' | 'resolved', { findings: Finding[]; report: CorpusReport }> = {
  plain: { findings: plainFindings, report: corpusReport(plainFindings, readJudgements()) },
  resolved: { findings: [], report: corpusReport([], readJudgements(), 'resolved') },
};

beforeAll(async () => {
  const findings = await withCorpusRegistry((lookups) => lintCorpus(lookups));
  runs.resolved = { findings, report: corpusReport(findings, readJudgements(), 'resolved') };
}, 120_000);

test('the corpus holds at least 40 manifests', () => {
  expect(runs.plain.report.files).toBeGreaterThanOrEqual(40);
});

describe.each(['plain', 'resolved'] as const)('real-world corpus, %s', (run) => {
  test('every finding is judged (add new ones to judgements.yaml)', () => {
    expect(runs[run].report.unjudged.map((f) => `${f.key} (${f.diagnostic.severity})`)).toEqual([]);
  });

  test('no finding judged wrong or advice is reported at warning or error', () => {
    expect(runs[run].report.noise.map((f) => `${f.key} (${f.diagnostic.severity})`)).toEqual([]);
  });

  test('no finding judged real disappears or drops to info', () => {
    expect(runs[run].report.lost.map((j) => findingKey(j.file, j.resource, j.rule, j.path))).toEqual([]);
  });

  test('every advice judgement names a finding that exists (real and wrong ones guard against regressions)', () => {
    const keys = new Set(runs[run].findings.map((f) => f.key));
    const stale = readJudgements().findings.filter(
      (j) =>
        j.verdict === 'advice' &&
        (run === 'resolved') === (j.resolution === true) &&
        !keys.has(findingKey(j.file, j.resource, j.rule, j.path)),
    );
    expect(stale.map((j) => findingKey(j.file, j.resource, j.rule, j.path))).toEqual([]);
  });
});

test('precision and recall meet the targets (85% and 90%) with image resolution; precision without it', () => {
  expect(runs.resolved.report.precision).toBeGreaterThanOrEqual(0.85);
  expect(runs.resolved.report.recall).toBeGreaterThanOrEqual(0.9);
  expect(runs.plain.report.precision).toBeGreaterThanOrEqual(0.85);
  // Image resolution reports at least what a default run does.
  expect(runs.resolved.report.reportedReal).toBeGreaterThanOrEqual(runs.plain.report.reportedReal);
});

test('images.yaml names every image reference of the corpus: its facts, or why it has none', () => {
  const recorded = new Set(readRecordedImages().map((i) => i.image));
  expect(corpusImageReferences().filter((r) => !recorded.has(r))).toEqual([]);
  expect([...recorded].filter((r) => !corpusImageReferences().includes(r))).toEqual([]);
});

test("the README's corpus figures are today's", () => {
  const text = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
  // Prose is compared with white space folded (the README wraps it); a miss names only the phrase.
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
