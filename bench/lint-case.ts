/**
 * One lint bench case: the CLI's own `run()` in-process on a generated manifest of `objectCount` objects, text
 * output to a counting sink, against `baseline` reading the same file (the lint and lint-large benches).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { run } from '../lib/cli/run';
import type { BenchCase } from './harness';
import { benchManifest } from './manifests';
import { CountingSink } from './sink';

export function lintCase(objectCount: number, baseline: { label: string; read: (text: string) => unknown }): BenchCase {
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-'));
  const file = path.join(dir, 'manifest.yaml');
  writeFileSync(file, benchManifest(objectCount));
  const sink = new CountingSink();
  return {
    baseline: { label: baseline.label, run: () => baseline.read(readFileSync(file, 'utf8')) },
    candidate: {
      label: 'k8s-windows lint',
      run: async () => {
        const code = await run(['lint', file], { stdout: sink, stderr: sink, isTTY: false, cwd: dir, env: {} });
        // 0 or 1 are lint outcomes; 2 means the bench measured a failure path, which would be meaningless.
        if (code === 2) throw new Error('k8s-windows lint exited 2 on the bench manifest');
        return sink.chars;
      },
    },
    teardown: () => rmSync(dir, { recursive: true, force: true }),
  };
}
