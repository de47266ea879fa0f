/**
 * The real-world corpus holds the engine to its judgements (test/fixtures/realworld/judgements.yaml): every
 * finding judged, nothing judged wrong or advice at warning or error, nothing judged real lost.
 */
import { corpusReport, findingKey, lintCorpus, readJudgements } from '../../../scripts/corpus';

const findings = lintCorpus();
const report = corpusReport(findings, readJudgements());

describe('real-world corpus', () => {
  test('holds at least 40 manifests', () => {
    expect(report.files).toBeGreaterThanOrEqual(40);
  });

  test('every finding is judged (add new ones to judgements.yaml)', () => {
    expect(report.unjudged.map((f) => `${f.key} (${f.diagnostic.severity})`)).toEqual([]);
  });

  test('no finding judged wrong or advice is reported at warning or error', () => {
    expect(report.noise.map((f) => `${f.key} (${f.diagnostic.severity})`)).toEqual([]);
  });

  test('no finding judged real disappears or drops to info', () => {
    expect(report.lost.map((j) => findingKey(j.file, j.resource, j.rule, j.path))).toEqual([]);
  });

  test('precision and recall meet the targets (85% and 90%)', () => {
    expect(report.precision).toBeGreaterThanOrEqual(0.85);
    expect(report.recall).toBeGreaterThanOrEqual(0.9);
  });

  test('every advice judgement names a finding that exists (real and wrong ones guard against regressions)', () => {
    const keys = new Set(findings.map((f) => f.key));
    const stale = readJudgements().findings.filter(
      (j) => j.verdict === 'advice' && !keys.has(findingKey(j.file, j.resource, j.rule, j.path)),
    );
    expect(stale.map((j) => findingKey(j.file, j.resource, j.rule, j.path))).toEqual([]);
  });
});
