/**
 * The judgement checks one run of the real-world corpus must pass (test/fixtures/realworld/judgements.yaml), shared
 * by the default run (realworld.test.ts, in-process) and the run with registry facts (realworld.e2e.test.ts, which
 * starts a docker-registry).
 */
import { findingKey, readJudgements, type CorpusReport, type CorpusRun, type Finding } from '../../../scripts/corpus';

export interface CorpusOutcome {
  readonly findings: Finding[];
  readonly report: CorpusReport;
}

/** Declares the judgement tests of `run`; `outcome` is read when they run (after a `beforeAll` filled it in). */
export function describeCorpusRun(run: CorpusRun, outcome: () => CorpusOutcome): void {
  describe(`real-world corpus, ${run}`, () => {
    test('every finding is judged (add new ones to judgements.yaml)', () => {
      expect(outcome().report.unjudged.map((f) => `${f.key} (${f.diagnostic.severity})`)).toEqual([]);
    });

    test('no finding judged wrong or advice is reported at warning or error', () => {
      expect(outcome().report.noise.map((f) => `${f.key} (${f.diagnostic.severity})`)).toEqual([]);
    });

    test('no finding judged real disappears or drops to info', () => {
      expect(outcome().report.lost.map((j) => findingKey(j.file, j.resource, j.rule, j.path))).toEqual([]);
    });

    test('every advice judgement names a finding that exists (real and wrong ones guard against regressions)', () => {
      const keys = new Set(outcome().findings.map((f) => f.key));
      const stale = readJudgements().findings.filter(
        (j) =>
          j.verdict === 'advice' &&
          (run === 'resolved') === (j.resolution === true) &&
          !keys.has(findingKey(j.file, j.resource, j.rule, j.path)),
      );
      expect(stale.map((j) => findingKey(j.file, j.resource, j.rule, j.path))).toEqual([]);
    });
  });
}
