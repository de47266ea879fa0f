/**
 * The real-world corpus (test/fixtures/realworld): public manifests that run on Windows nodes, linted as
 * `k8s-windows lint test/fixtures/realworld` would, and compared with the judgements in `judgements.yaml`.
 * `npm run corpus` prints precision and recall; test/core/validate/realworld.e2e.test.ts holds the judgements.
 */
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import {
  imageReferencesOf,
  loadManifestsWithErrors,
  validateManifests,
  type Diagnostic,
  type ImageLookups,
} from '../lib/core';

export const CORPUS_DIR = join(__dirname, '..', 'test', 'fixtures', 'realworld');
export const JUDGEMENTS_FILE = join(CORPUS_DIR, 'judgements.yaml');
/** The corpus's own records, beside the manifests: judgements and image facts. */
const RECORDS = new Set(['judgements.yaml', 'images.yaml']);
const isManifestFile = (f: string): boolean => /\.(ya?ml|json)$/.test(f) && !RECORDS.has(f);

export type Verdict = 'real' | 'wrong' | 'advice';

export interface Judgement {
  readonly file: string;
  readonly resource: string;
  readonly rule: string;
  readonly path: string;
  readonly verdict: Verdict;
  readonly note?: string;
  /** `true`: the finding needs the registry's facts (`--resolve-images`; the facts are in images.yaml). */
  readonly resolution?: boolean;
}

/** A real problem in a corpus file that no rule reports at warning or error. */
export interface Missed {
  readonly file: string;
  readonly resource: string;
  readonly problem: string;
}

export interface Judgements {
  readonly findings: readonly Judgement[];
  readonly missed: readonly Missed[];
}

export interface Finding {
  readonly key: string;
  readonly diagnostic: Diagnostic;
}

/** `file|Kind/name|rule|path`: what a judgement is matched on. */
export function findingKey(file: string, resource: string, rule: string, path: string): string {
  return [file, resource, rule, path].join('|');
}

/**
 * Every manifest file of the corpus, linted together as one directory run with the default options; with `images`,
 * as `--resolve-images` would, given what the registries answered (see corpus-images.ts).
 */
/** The corpus's objects, every manifest file loaded in name order (each keeps its file as its source). */
export function corpusObjects(): unknown[] {
  const files = readdirSync(CORPUS_DIR).filter(isManifestFile).sort();
  const objects: unknown[] = [];
  for (const f of files) {
    const { objects: loaded, errors } = loadManifestsWithErrors(readFileSync(join(CORPUS_DIR, f), 'utf8'), f);
    if (errors.length > 0) throw new Error(`${f}: ${errors[0].message}`);
    objects.push(...loaded.filter((o) => typeof o === 'object' && o !== null && 'kind' in o));
  }
  return objects;
}

export function lintCorpus(images?: ImageLookups): Finding[] {
  const objects = corpusObjects();
  return validateManifests(objects, images ? { images } : {}).map((d) => ({
    key: findingKey(d.resource.source ?? '', `${d.resource.kind}/${d.resource.name}`, d.ruleId, d.path),
    diagnostic: d,
  }));
}

/** Every image reference the corpus's pods name, once each. */
export function corpusImageReferences(): string[] {
  return imageReferencesOf(corpusObjects());
}

export function readJudgements(): Judgements {
  const raw = parse(readFileSync(JUDGEMENTS_FILE, 'utf8')) as Partial<Judgements> | null;
  return { findings: raw?.findings ?? [], missed: raw?.missed ?? [] };
}

export interface CorpusReport {
  readonly files: number;
  /** Findings at warning or error. */
  readonly reported: number;
  readonly reportedReal: number;
  /** Real problems known in the corpus: those reported plus the judged misses. */
  readonly realKnown: number;
  readonly precision: number;
  readonly recall: number;
  /** Findings with no judgement. */
  readonly unjudged: readonly Finding[];
  /** Findings at warning or error judged wrong or advice. */
  readonly noise: readonly Finding[];
  /** Judged real but no longer reported at warning or error. */
  readonly lost: readonly Judgement[];
}

/** `plain`: a default run; `resolved`: with the registry facts of images.yaml (`--resolve-images`). */
export type CorpusRun = 'plain' | 'resolved';

export function corpusReport(
  findings = lintCorpus(),
  judgements = readJudgements(),
  run: CorpusRun = 'plain',
): CorpusReport {
  // A plain run is judged without the judgements of findings only registry facts give.
  const applicable = judgements.findings.filter((j) => run === 'resolved' || j.resolution !== true);
  const byKey = new Map(applicable.map((j) => [findingKey(j.file, j.resource, j.rule, j.path), j]));
  const loud = findings.filter((f) => f.diagnostic.severity !== 'info');
  const loudKeys = new Set(loud.map((f) => f.key));
  const unjudged = findings.filter((f) => !byKey.has(f.key));
  const noise = loud.filter((f) => byKey.get(f.key)?.verdict !== 'real');
  const reportedReal = loud.length - noise.length;
  const lost = applicable.filter(
    (j) => j.verdict === 'real' && !loudKeys.has(findingKey(j.file, j.resource, j.rule, j.path)),
  );
  // Every real problem known, whichever run reports it: a plain run misses those only the registry shows.
  const realKnown = judgements.findings.filter((j) => j.verdict === 'real').length + judgements.missed.length;
  const files = readdirSync(CORPUS_DIR).filter(isManifestFile).length;
  return {
    files,
    reported: loud.length,
    reportedReal,
    realKnown,
    precision: loud.length === 0 ? 1 : reportedReal / loud.length,
    recall: realKnown === 0 ? 1 : reportedReal / realKnown,
    unjudged,
    noise,
    lost,
  };
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function describe(r: CorpusReport, title: string): { lines: string[]; bad: number } {
  const lines = [
    title,
    `  errors and warnings: ${r.reported}, real problems among them: ${r.reportedReal}`,
    `  precision: ${percent(r.precision)} (real / reported at warning or error)`,
    `  recall:    ${percent(r.recall)} (reported real / ${r.realKnown} real problems known in the corpus)`,
  ];
  for (const f of r.unjudged) lines.push(`  unjudged: ${f.key} (${f.diagnostic.severity})`);
  for (const f of r.noise) lines.push(`  noise:    ${f.key} (${f.diagnostic.severity})`);
  for (const j of r.lost) lines.push(`  lost:     ${findingKey(j.file, j.resource, j.rule, j.path)}`);
  return { lines, bad: r.unjudged.length + r.noise.length + r.lost.length };
}

async function main(): Promise<void> {
  const plain = corpusReport();
  const out = describe(plain, `corpus: ${plain.files} files in test/fixtures/realworld\nwithout image resolution:`);
  // The resolved run needs Debian's docker-registry (apt-get install -y docker-registry), as the tests do.
  const { withCorpusRegistry, readRecordedImages } = await import('./corpus-images');
  const images = readRecordedImages();
  const known = images.filter((i) => i.unrecorded === undefined).length;
  const resolved = await withCorpusRegistry((lookups) =>
    corpusReport(lintCorpus(lookups), readJudgements(), 'resolved'),
  );
  const withImages = describe(
    resolved,
    `with --resolve-images (registry facts of ${known} image references in images.yaml; ${images.length - known} not recorded):`,
  );
  process.stdout.write(`${[...out.lines, ...withImages.lines].join('\n')}\n`);
  process.exitCode = out.bad + withImages.bad > 0 ? 1 : 0;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
