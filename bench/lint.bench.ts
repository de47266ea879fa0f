/**
 * Lint throughput (DESIGN.md, Performance): `k8s-windows lint` on a 10,000-object manifest vs parsing the same file
 * with `yaml` alone. The candidate is the CLI's own `run()` in-process, text output to a sink, so the figure
 * covers reading, loading with positions, validating and formatting; the baseline is the floor any YAML linter pays.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { run } from '../lib/cli/run';
import { defineBench } from './harness';
import { CountingSink } from './sink';
import { benchManifest } from './manifests';

/** Objects in the generated manifest (DESIGN.md: a 10,000-object manifest). */
const OBJECT_COUNT = 10_000;

export default defineBench({
  title: `k8s-windows lint (load + validate + text output) vs yaml parse + toJS, ${OBJECT_COUNT.toLocaleString('en-US')} objects`,
  aim: 1.5,
  warmup: 1,
  rounds: 5,
  setup() {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-'));
    const file = path.join(dir, 'manifest.yaml');
    writeFileSync(file, benchManifest(OBJECT_COUNT));
    const sink = new CountingSink();
    return {
      baseline: {
        label: 'yaml parse',
        run: () => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS()),
      },
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
  },
});
