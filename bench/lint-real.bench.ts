/**
 * Lint at scale on real manifests: `k8s-windows lint` on 40 MB of test/fixtures/realworld repeated (issue 24 asks
 * for a real corpus rather than a generated one) against js-yaml reading the same file, the floor of any linter
 * that must read every document. The aim is 2.5x.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadAll } from 'js-yaml';
import { run } from '../lib/cli/run';
import { defineBench } from './harness';
import { realworldCorpus } from './realworld';
import { CountingSink } from './sink';

const BYTES = 40 * 1024 * 1024;

export default defineBench({
  title: 'k8s-windows lint vs js-yaml loadAll, test/fixtures/realworld repeated to 40 MB',
  aim: 2.5,
  warmup: 1,
  rounds: 3,
  setup() {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-'));
    const file = path.join(dir, 'realworld.yaml');
    writeFileSync(file, realworldCorpus(BYTES));
    const sink = new CountingSink();
    return {
      baseline: { label: 'js-yaml loadAll', run: () => loadAll(readFileSync(file, 'utf8')) },
      candidate: {
        label: 'k8s-windows lint',
        run: async () => {
          const code = await run(['lint', file], { stdout: sink, stderr: sink, isTTY: false, cwd: dir, env: {} });
          if (code === 2) throw new Error('k8s-windows lint exited 2 on the realworld corpus');
          return sink.chars;
        },
      },
      teardown: () => rmSync(dir, { recursive: true, force: true }),
    };
  },
});
