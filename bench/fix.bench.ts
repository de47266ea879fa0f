/**
 * Fix cost (issue: `fix` on 10,000 objects costs at most 2x `lint` on the same input): `k8s-windows fix` (load,
 * validate, fix, re-validate, render, report) vs `k8s-windows lint` (load, validate, text output), both the CLI's
 * own `run()` in-process on the same 10,000-object manifest, output to a sink.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { run } from '../lib/cli/run';
import { defineBench } from './harness';
import { CountingSink } from './sink';
import { benchManifest } from './manifests';

/** Objects in the generated manifest, as in the lint bench. */
const OBJECT_COUNT = 10_000;

export default defineBench({
  title: `k8s-windows fix vs k8s-windows lint, ${OBJECT_COUNT.toLocaleString('en-US')} objects`,
  aim: 2,
  warmup: 1,
  rounds: 5,
  setup() {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-'));
    const file = path.join(dir, 'manifest.yaml');
    writeFileSync(file, benchManifest(OBJECT_COUNT));
    const sink = new CountingSink();
    const io = { stdout: sink, stderr: sink, isTTY: false, cwd: dir, env: {} };
    const once = async (argv: string[]) => {
      const code = await run(argv, io);
      // 0 or 1 are outcomes; 2 means the bench measured a failure path, which would be meaningless.
      if (code === 2) throw new Error(`k8s-windows ${argv[0]} exited 2 on the bench manifest`);
      return sink.chars;
    };
    return {
      baseline: { label: 'k8s-windows lint', run: () => once(['lint', file]) },
      // --cloud gke and --windows-release make most Windows pods take a toleration and a pin: the costly path.
      candidate: {
        label: 'k8s-windows fix',
        run: () => once(['fix', '--cloud', 'gke', '--windows-release', '2022', '--pin-linux', file]),
      },
      teardown: () => rmSync(dir, { recursive: true, force: true }),
    };
  },
});
