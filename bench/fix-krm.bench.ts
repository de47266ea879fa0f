/**
 * `fix --krm` vs `fix` (issue 24: 4x slower at 15,000 pods; the aim is 1.5x): the same manifests as a plain YAML
 * stream to `fix -` and wrapped in a KRM ResourceList to `fix --krm`, both the CLI's own `run()` in-process with
 * output to a sink.
 */
import { stringify } from 'yaml';
import { loadAll } from 'js-yaml';
import { run } from '../lib/cli/run';
import { defineBench } from './harness';
import { benchManifest } from './manifests';
import { CountingSink } from './sink';

const OBJECT_COUNT = 5_000;

export default defineBench({
  title: `k8s-windows fix --krm vs k8s-windows fix, ${OBJECT_COUNT.toLocaleString('en-US')} objects`,
  aim: 1.5,
  warmup: 1,
  rounds: 3,
  setup() {
    const stream = benchManifest(OBJECT_COUNT);
    const list = stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: loadAll(stream).filter((o) => o !== null),
    });
    const sink = new CountingSink();
    const once = async (argv: string[], stdin: string) => {
      const code = await run(argv, { stdout: sink, stderr: sink, stdin, isTTY: false, env: {} });
      if (code === 2) throw new Error(`k8s-windows ${argv.join(' ')} exited 2 on the bench manifest`);
      return sink.chars;
    };
    const options = ['--cloud', 'gke', '--windows-release', '2022', '--no-config'];
    return {
      baseline: { label: 'k8s-windows fix -', run: () => once(['fix', ...options, '-'], stream) },
      candidate: { label: 'k8s-windows fix --krm', run: () => once(['fix', '--krm', ...options], list) },
    };
  },
});
