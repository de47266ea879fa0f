/**
 * The bench harness: each bench compares a candidate with a baseline measured in the same process and the same
 * run, so the reported figure is a ratio that means the same on a laptop and on a CI runner. Rounds interleave the
 * two sides (alternating which goes first) so drift in CPU clock or heap state hits both alike; medians drop
 * outliers. Timing never fails the run: the table says PASS or OVER against each bench's aim.
 */
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** One side of a comparison. */
export interface BenchSide {
  /** What this side does, for the table: `yaml parseAllDocuments + toJS`. */
  readonly label: string;
  /**
   * One timed repetition. A side that runs its work elsewhere (a fresh child process) and times it there returns
   * `{ elapsedMs }`, which is recorded instead of the wall time of the call.
   */
  run(): unknown;
}

/** What `run` returns when it measured its own work. */
export interface SelfTimed {
  readonly elapsedMs: number;
}

function isSelfTimed(v: unknown): v is SelfTimed {
  return typeof v === 'object' && v !== null && typeof (v as { elapsedMs?: unknown }).elapsedMs === 'number';
}

/** What a bench's `setup` returns: both sides, ready to time, and how to clean up. */
export interface BenchCase {
  readonly baseline: BenchSide;
  readonly candidate: BenchSide;
  /** Removes whatever setup created (temp files). */
  teardown?(): void | Promise<void>;
}

export interface Bench {
  /** What is compared, one line. */
  readonly title: string;
  /** The candidate/baseline ratio the project aims to stay at or under. */
  readonly aim: number;
  /**
   * Untimed repetitions of each side before measuring (JIT, caches).
   * @default 1
   */
  readonly warmup?: number;
  /**
   * Timed repetitions of each side, interleaved.
   * @default 5
   */
  readonly rounds?: number;
  /** Builds the inputs once (untimed) and returns the two sides. */
  setup(): BenchCase | Promise<BenchCase>;
}

/** Defaults for the optional `Bench` fields. */
export const DEFAULT_WARMUP = 1;
export const DEFAULT_ROUNDS = 5;

export type BenchStatus = 'PASS' | 'OVER';

export interface BenchResult {
  readonly name: string;
  readonly title: string;
  readonly baselineLabel: string;
  readonly candidateLabel: string;
  /** Median milliseconds per repetition. */
  readonly baselineMs: number;
  readonly candidateMs: number;
  /** candidate / baseline, from the medians. */
  readonly ratio: number;
  readonly aim: number;
  readonly status: BenchStatus;
  readonly rounds: number;
}

/** Identity function that types a bench module's default export. */
export function defineBench(bench: Bench): Bench {
  return bench;
}

/**
 * A full garbage collection before each timed repetition, so one side does not pay for the other's garbage.
 * `--expose-gc` is switched on at first use (tsx offers no flag for it); a fresh context then sees `gc`.
 */
let gcFunction: (() => void) | undefined;
function collectGarbage(): void {
  if (gcFunction === undefined) {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('typeof gc === "function" ? gc : undefined');
    gcFunction = typeof gc === 'function' ? (gc as () => void) : () => undefined;
  }
  gcFunction();
}

async function timeOnce(side: BenchSide, collect: () => void): Promise<number> {
  collect();
  const start = performance.now();
  const result = await side.run();
  const elapsed = performance.now() - start;
  return isSelfTimed(result) ? result.elapsedMs : elapsed;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface MeasureOptions {
  /**
   * Overrides the bench's own round count.
   * @default - the bench's `rounds`
   */
  readonly rounds?: number;
  /**
   * Progress lines (stderr in `run.ts`).
   * @default - silent
   */
  readonly log?: (line: string) => void;
  /**
   * Run before each timed repetition. Tests give their own: a full collection of jest's heap costs a quarter second.
   * @default - a full garbage collection (`--expose-gc`)
   */
  readonly collectGarbage?: () => void;
}

export async function measure(name: string, bench: Bench, options: MeasureOptions = {}): Promise<BenchResult> {
  const warmup = bench.warmup ?? DEFAULT_WARMUP;
  const rounds = options.rounds ?? bench.rounds ?? DEFAULT_ROUNDS;
  const log = options.log ?? (() => undefined);
  const collect = options.collectGarbage ?? collectGarbage;
  log(`${name}: setup`);
  const benchCase = await bench.setup();
  try {
    for (let i = 0; i < warmup; i++) {
      await benchCase.baseline.run();
      await benchCase.candidate.run();
    }
    const baseline: number[] = [];
    const candidate: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // Alternate which side goes first, so neither always runs on a freshly collected, cooler heap.
      if (i % 2 === 0) {
        baseline.push(await timeOnce(benchCase.baseline, collect));
        candidate.push(await timeOnce(benchCase.candidate, collect));
      } else {
        candidate.push(await timeOnce(benchCase.candidate, collect));
        baseline.push(await timeOnce(benchCase.baseline, collect));
      }
      log(`${name}: round ${i + 1}/${rounds}: baseline ${formatMs(baseline[i])}, candidate ${formatMs(candidate[i])}`);
    }
    const baselineMs = median(baseline);
    const candidateMs = median(candidate);
    const ratio = candidateMs / baselineMs;
    return {
      name,
      title: bench.title,
      baselineLabel: benchCase.baseline.label,
      candidateLabel: benchCase.candidate.label,
      baselineMs,
      candidateMs,
      ratio,
      aim: bench.aim,
      status: ratio <= bench.aim ? 'PASS' : 'OVER',
      rounds,
    };
  } finally {
    await benchCase.teardown?.();
  }
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

/** The results as an aligned table: one row per bench, medians, ratio, aim and PASS/OVER. */
export function formatTable(results: readonly BenchResult[]): string {
  const header = ['bench', 'baseline (median)', 'candidate (median)', 'ratio', 'aim', 'result'];
  const rows = results.map((r) => [
    r.name,
    `${r.baselineLabel}: ${formatMs(r.baselineMs)}`,
    `${r.candidateLabel}: ${formatMs(r.candidateMs)}`,
    `${r.ratio.toFixed(2)}x`,
    `<= ${r.aim}`,
    r.status,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const titles = results.map((r) => `  ${r.name}: ${r.title} (${r.rounds} round${r.rounds === 1 ? '' : 's'})`);
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), '', ...titles, ''].join('\n');
}
