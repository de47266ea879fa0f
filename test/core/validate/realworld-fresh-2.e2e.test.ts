/**
 * The second fresh real-world corpus (test/fixtures/realworld-fresh-2; provenance in its SOURCES.md), collected apart
 * from test/fixtures/realworld and test/fixtures/realworld-fresh from other public projects, Helm charts among them
 * (issue 34). It is linted as `k8s-windows lint --format json --set enableWindows=true test/fixtures/realworld-fresh-2`
 * (charts rendered by the real Helm: an e2e test), and every finding is held to its judgement in judgements.yaml. Every real problem was first written,
 * per object, in blind-judgements.yaml, committed before the linter ran on these files; the test holds the two to
 * each other too. Its Kustomize tree (ahanafy/windows-kustomize) was removed on 2026-12-08 with its judgements: its
 * repository states no licence.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { run } from '../../../lib/cli/run';
import { findingKey, type Judgements } from '../../../scripts/corpus';
import { toolsPath } from '../../helpers/tools';

const ROOT = path.join(__dirname, '../../..');
const CORPUS = 'test/fixtures/realworld-fresh-2';
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
const RECORDS = new Set(['judgements.yaml', 'blind-judgements.yaml']);
const judgements = parse(readFileSync(path.join(CORPUS_DIR, 'judgements.yaml'), 'utf8')) as Judgements;
const byKey = new Map(judgements.findings.map((j) => [findingKey(j.file, j.resource, j.rule, j.path), j]));

beforeAll(async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'k8s-windows-fresh2-home-'));
  try {
    let stdout = '';
    let stderr = '';
    // local-static-provisioner's Windows DaemonSet is off by default; the other charts read no such value.
    await run(['lint', '--format', 'json', '--set', 'enableWindows=true', CORPUS], {
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

/** Findings judged wrong that a rule still reports at warning: none (the blind run had none either). */
const MEASURED_NOISE = new Set<string>([]);

const loud = () => findings.filter((f) => f.severity !== 'info');
const reportedReal = () => loud().filter((f) => byKey.get(f.key)?.verdict === 'real').length;
const precision = () => reportedReal() / loud().length;
const recall = () => reportedReal() / (reportedReal() + judgements.missed.length);

describe('second fresh real-world corpus', () => {
  test('every file and directory has its provenance in SOURCES.md', () => {
    const sources = readFileSync(path.join(CORPUS_DIR, 'SOURCES.md'), 'utf8');
    const entries = [
      ...readdirSync(CORPUS_DIR).filter((f) => /\.ya?ml$/.test(f) && !RECORDS.has(f)),
      // A folder of rendered inputs (charts/, kustomize/) is listed only if the corpus has one (it has no kustomize/).
      ...['charts', 'kustomize']
        .filter((d) => existsSync(path.join(CORPUS_DIR, d)))
        .flatMap((d) => readdirSync(path.join(CORPUS_DIR, d)).map((n) => `${d}/${n}/`)),
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

  test('every real problem judged blind is reported or missed, and nothing real was added after linting', () => {
    const blind = parse(readFileSync(path.join(CORPUS_DIR, 'blind-judgements.yaml'), 'utf8')) as {
      objects: { file: string; resource: string; problems: string[] }[];
    };
    const withProblems = blind.objects.filter((o) => o.problems.length > 0).map((o) => `${o.file}|${o.resource}`);
    const judged = new Set([
      ...judgements.findings.filter((j) => j.verdict === 'real').map((j) => `${j.file}|${j.resource}`),
      ...judgements.missed.map((m) => `${m.file}|${m.resource}`),
    ]);
    expect(withProblems.filter((o) => !judged.has(o))).toEqual([]);
    expect([...judged].filter((o) => !withProblems.includes(o))).toEqual([]);
    expect(blind.objects.reduce((n, o) => n + o.problems.length, 0)).toBe(13);
  });

  test('precision and recall hold the measured line', () => {
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    process.stdout.write(
      `second fresh corpus: ${loud().length} errors and warnings, ${reportedReal()} real (precision ${pct(precision())}); ` +
        `${reportedReal()} of ${reportedReal() + judgements.missed.length} real findings known reported (recall ${pct(recall())}); ` +
        `${findings.length - loud().length} at info\n`,
    );
    // The target (issue 34) is 90% for both. Blind (before any rule change, blind-judgements.yaml): 11 errors and
    // warnings, all real; 10 of the 13 problems judged blind reported (76.9%; by findings as computed here, 11 of
    // 14: 78.6%). Today: 12 of 12 real, 11 of 13 problems (84.6%; 12 of 14 findings, 85.7%): the Server Core image
    // behind a `< Registry Name >` placeholder is read. The two left need the registry or a Dockerfile (missed:).
    // (Lowered once, on 2026-12-08, by removing the unlicensed Kustomize tree: its one problem, one real finding,
    // reported blind; with it the figures were 12 of 12 real, 11 of 14 blind; 13 of 13, 12 of 14 after the fix.)
    // These figures are the floor until a rule change lifts them; raise them then, never lower them.
    expect(reportedReal()).toBeGreaterThanOrEqual(12);
    expect(precision()).toBeGreaterThanOrEqual(12 / 12);
    expect(recall()).toBeGreaterThanOrEqual(12 / 14);
  });
});
