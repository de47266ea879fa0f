/**
 * The fresh real-world corpus (test/fixtures/realworld-fresh; provenance in its SOURCES.md), collected apart from
 * test/fixtures/realworld from other public projects, Helm charts and Kustomize trees among them. It is linted as
 * `k8s-windows lint --format json test/fixtures/realworld-fresh` lints it (charts rendered by the real Helm, trees built
 * by the real Kustomize: an e2e test), and every finding is held to its judgement in judgements.yaml, whose `missed:`
 * entries were written by reading the files before the linter ran on them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { run } from '../../../lib/cli/run';
import { findingKey, type Judgements } from '../../../scripts/corpus';
import { toolsPath } from '../../helpers/tools';

const ROOT = path.join(__dirname, '../../..');
const CORPUS = 'test/fixtures/realworld-fresh';
const CORPUS_DIR = path.join(ROOT, CORPUS);

interface JsonFinding {
  readonly ruleId: string;
  readonly severity: 'error' | 'warning' | 'info';
  readonly path: string;
  readonly source?: string;
  readonly resource: { readonly kind: string; readonly name: string; readonly source?: string };
}
interface Finding {
  readonly key: string;
  readonly severity: JsonFinding['severity'];
}

let findings: Finding[] = [];
let inputProblems: unknown[] = [];
const judgements = parse(readFileSync(path.join(CORPUS_DIR, 'judgements.yaml'), 'utf8')) as Judgements;
const byKey = new Map(judgements.findings.map((j) => [findingKey(j.file, j.resource, j.rule, j.path), j]));

beforeAll(async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'k8s-windows-fresh-home-'));
  try {
    let stdout = '';
    let stderr = '';
    await run(['lint', '--format', 'json', CORPUS], {
      cwd: ROOT,
      env: { PATH: toolsPath(), HOME: home },
      isTTY: false,
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
    });
    if (stdout.trim() === '') throw new Error(`lint printed no report: ${stderr}`);
    const report = JSON.parse(stdout) as { findings: JsonFinding[]; inputProblems?: unknown[] };
    inputProblems = report.inputProblems ?? [];
    findings = report.findings.map((f) => {
      // Plain files are named by their path; rendered ones as `charts/<name> (helm template)` and the like.
      const file = (f.resource.source ?? f.source ?? '').replace(`${CORPUS}/`, '');
      return {
        key: findingKey(file, `${f.resource.kind}/${f.resource.name}`, f.ruleId, f.path),
        severity: f.severity,
      };
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}, 120_000);

/**
 * Findings judged wrong that a rule still reports at warning: none today (image-build-unpinned's two on the DirectX
 * device-plugin Jobs went when the rule learned that the plugins run only on Windows Server 2022 or newer nodes, all of
 * which run their ltsc2022 images). Should a rule change bring such noise back, it fails the test below, not this list.
 */
const MEASURED_NOISE = new Set<string>([]);

const loud = () => findings.filter((f) => f.severity !== 'info');
const reportedReal = () => loud().filter((f) => byKey.get(f.key)?.verdict === 'real').length;
const precision = () => reportedReal() / loud().length;
const recall = () => reportedReal() / (reportedReal() + judgements.missed.length);

describe('fresh real-world corpus', () => {
  test('every file and directory has its provenance in SOURCES.md', () => {
    const sources = readFileSync(path.join(CORPUS_DIR, 'SOURCES.md'), 'utf8');
    const entries = [
      ...readdirSync(CORPUS_DIR).filter((f) => /\.ya?ml$/.test(f) && f !== 'judgements.yaml'),
      ...['charts', 'kustomize'].flatMap((d) => readdirSync(path.join(CORPUS_DIR, d)).map((n) => `${d}/${n}/`)),
    ];
    expect(entries.filter((e) => !sources.includes(`| ${e} |`))).toEqual([]);
  });

  test('every input renders and parses', () => {
    expect(inputProblems).toEqual([]);
    expect(findings.length).toBeGreaterThan(0);
  });

  test('every finding is judged (add new ones to judgements.yaml)', () => {
    expect(findings.filter((f) => !byKey.has(f.key)).map((f) => `${f.key} (${f.severity})`)).toEqual([]);
  });

  test('no finding judged wrong or advice is reported at warning or error, beyond the noise measured today', () => {
    const noise = loud().filter((f) => byKey.has(f.key) && byKey.get(f.key)?.verdict !== 'real');
    expect(noise.filter((f) => !MEASURED_NOISE.has(f.key)).map((f) => `${f.key} (${f.severity})`)).toEqual([]);
  });

  test('no finding judged real disappears or drops to info', () => {
    const loudKeys = new Set(loud().map((f) => f.key));
    const lost = judgements.findings.filter(
      (j) => j.verdict === 'real' && !loudKeys.has(findingKey(j.file, j.resource, j.rule, j.path)),
    );
    expect(lost.map((j) => findingKey(j.file, j.resource, j.rule, j.path))).toEqual([]);
  });

  test('every advice judgement names a finding that exists', () => {
    const keys = new Set(findings.map((f) => f.key));
    const stale = judgements.findings.filter(
      (j) => j.verdict === 'advice' && !keys.has(findingKey(j.file, j.resource, j.rule, j.path)),
    );
    expect(stale.map((j) => findingKey(j.file, j.resource, j.rule, j.path))).toEqual([]);
  });

  test('precision and recall hold the measured line', () => {
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    process.stdout.write(
      `fresh corpus: ${loud().length} errors and warnings, ${reportedReal()} real (precision ${pct(precision())}); ` +
        `${reportedReal()} of ${reportedReal() + judgements.missed.length} real problems known reported (recall ${pct(recall())}); ` +
        `${findings.length - loud().length} at info\n`,
    );
    // The target (issue 34) is 90% for both. Measured today: precision 8/8 and recall 8/8 (was 7/9 and 7/8: the
    // two wrong image-build-unpinned findings on the DirectX device-plugin Jobs are gone, and the RuntimeClass whose
    // handler contradicts its name is runtimeclass-isolation-mismatch). These figures are the floor until a rule
    // change lifts them; raise them then, never lower them.
    expect(reportedReal()).toBeGreaterThanOrEqual(8);
    expect(precision()).toBeGreaterThanOrEqual(8 / 8);
    expect(recall()).toBeGreaterThanOrEqual(8 / 8);
  });
});
