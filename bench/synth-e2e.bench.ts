/**
 * End to end (DESIGN.md, Performance): `npm run synth` (cdk8s-cli, tsx, the validation plugin) vs the same example
 * app precompiled to JavaScript and run with plain `node`. The gap is what the quick-start command costs over the
 * bare minimum: the CLI, on-the-fly transpiling and validating every manifest.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defineBench } from './harness';
import { transpileTree } from './transpile';

const ROOT = path.resolve(__dirname, '..');
/** Source trees the example app is made of, and where its public import name points. */
const TREES = ['lib/core', 'lib/registry', 'lib/cdk8s', 'examples/cdk8s'];
const PUBLIC_NAME = /require\("k8s-windows\/cdk8s"\)/g;

function run(command: string, args: string[], cwd: string): void {
  const env = { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules'), CDK8S_CHECK_UPGRADE: 'false' };
  const res = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  if (res.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (exit ${String(res.status)}): ${res.stderr}`);
}

export default defineBench({
  title: '`npm run synth` (cdk8s-cli + tsx + validation plugin) vs the example app precompiled and run with `node`',
  // Measured here: ~0.16 s precompiled vs ~1.1 s for npm run synth, of which npm ~0.13 s, cdk8s-cli start-up ~0.4 s,
  // tsx transpiling the app ~0.2 s, the plugin loading the rule engine ~0.2 s. The aim guards against growth.
  aim: 8,
  warmup: 1,
  rounds: 3,
  setup() {
    const outDir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-e2e-'));
    const cdk8sIndex = path.join(outDir, 'lib', 'cdk8s', 'index.js');
    for (const tree of TREES) {
      transpileTree(path.join(ROOT, tree), path.join(outDir, tree), (js, toFile) =>
        js.replace(
          PUBLIC_NAME,
          `require(${JSON.stringify(path.relative(path.dirname(toFile), cdk8sIndex).replace(/^(?!\.)/, './'))})`,
        ),
      );
    }
    const main = path.join(outDir, 'examples', 'cdk8s', 'main.js');
    return {
      baseline: { label: 'node main.js (precompiled)', run: () => run(process.execPath, [main], outDir) },
      candidate: { label: 'npm run synth', run: () => run('npm', ['run', '--silent', 'synth'], ROOT) },
      teardown: () => rmSync(outDir, { recursive: true, force: true }),
    };
  },
});
