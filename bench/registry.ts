/**
 * Every bench, by name: adding one is a `bench/<name>.bench.ts` module (default export `defineBench({...})`) and
 * one line here. Modules load lazily, so `--only lint` never imports cdk8s or Pulumi.
 */
import type { Bench } from './harness';

export const BENCHES: Readonly<Record<string, () => Promise<{ default: Bench }>>> = {
  lint: () => import('./lint.bench'),
  'lint-large': () => import('./lint-large.bench'),
  'lint-real': () => import('./lint-real.bench'),
  'lint-resolve': () => import('./lint-resolve.bench'),
  fix: () => import('./fix.bench'),
  'fix-krm': () => import('./fix-krm.bench'),
  synth: () => import('./synth.bench'),
  'synth-fresh': () => import('./synth-fresh.bench'),
  import: () => import('./import.bench'),
  'synth-e2e': () => import('./synth-e2e.bench'),
};
