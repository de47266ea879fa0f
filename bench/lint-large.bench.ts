/**
 * Lint at scale: `k8s-windows lint` on a 40 MB manifest set (40,000 objects, the size a user measured at 20.8 s)
 * against js-yaml reading the same file, the fastest well-kept YAML parser: the floor of any linter that must read
 * every document. Positions are built only for the documents a finding points into.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadAll } from 'js-yaml';
import { run } from '../lib/cli/run';
import { defineBench } from './harness';
import { CountingSink } from './sink';
import { benchManifest } from './manifests';

const OBJECT_COUNT = 40_000;

export default defineBench({
  title: `k8s-windows lint vs js-yaml loadAll, ${OBJECT_COUNT.toLocaleString('en-US')} objects (about 40 MB)`,
  aim: 4,
  warmup: 1,
  rounds: 3,
  setup() {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-'));
    const file = path.join(dir, 'manifest.yaml');
    writeFileSync(file, benchManifest(OBJECT_COUNT));
    const sink = new CountingSink();
    return {
      baseline: { label: 'js-yaml loadAll', run: () => loadAll(readFileSync(file, 'utf8')) },
      candidate: {
        label: 'k8s-windows lint',
        run: async () => {
          const code = await run(['lint', file], { stdout: sink, stderr: sink, isTTY: false, cwd: dir, env: {} });
          if (code === 2) throw new Error('k8s-windows lint exited 2 on the bench manifest');
          return sink.chars;
        },
      },
      teardown: () => rmSync(dir, { recursive: true, force: true }),
    };
  },
});
