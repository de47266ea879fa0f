/**
 * Synth overhead in a fresh process (the measure, and what a user's `cdk8s synth` pays): 1,000
 * `WindowsDeployment` vs 1,000 plain cdk8s-plus-28 `Deployment`, each repetition a new `node` process that loads the
 * modules (untimed), then builds the chart and runs `Testing.synth` (timed inside the child). Cold: most of the code
 * runs before the JIT has optimized it, so what counts here is how much code runs per pod, not how fast it becomes.
 * Fresh processes vary more than one warm process: the bench takes 21 rounds.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defineBench } from './harness';
import { transpileTree } from './transpile';

const ROOT = path.resolve(__dirname, '..');
/** Deployments per chart (DESIGN.md: 1,000). */
const DEPLOYMENT_COUNT = 1_000;
/** A build-pinned image, so the Windows side pays for the image check but emits no warning. */
const IMAGE = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

const CHILD = `'use strict';
const { performance } = require('node:perf_hooks');
const { Testing } = require('cdk8s');
const kplus = require('cdk8s-plus-28');
const windows = require('./lib/cdk8s');
const Kind = process.argv[2] === 'windows' ? windows.WindowsDeployment : kplus.Deployment;
const start = performance.now();
const chart = Testing.chart();
for (let i = 0; i < ${DEPLOYMENT_COUNT}; i++) {
  new Kind(chart, 'web' + i, { containers: [{ image: ${JSON.stringify(IMAGE)}, portNumber: 80 }] });
}
const objects = Testing.synth(chart).length;
const elapsedMs = performance.now() - start;
if (objects !== ${DEPLOYMENT_COUNT}) throw new Error('expected ${DEPLOYMENT_COUNT} objects, got ' + objects);
process.stdout.write(JSON.stringify({ elapsedMs }));
`;

function runChild(dir: string, kind: 'plain' | 'windows'): { elapsedMs: number } {
  const env = { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') };
  const res = spawnSync(process.execPath, [path.join(dir, 'child.js'), kind], { cwd: dir, env, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`synth-fresh child (${kind}) failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as { elapsedMs: number };
}

export default defineBench({
  title: `fresh process: build + Testing.synth of ${DEPLOYMENT_COUNT.toLocaleString('en-US')} WindowsDeployment vs kplus.Deployment`,
  aim: 1.1,
  warmup: 1,
  rounds: 21,
  setup() {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-synth-fresh-'));
    for (const tree of ['lib/core', 'lib/registry', 'lib/cdk8s'])
      transpileTree(path.join(ROOT, tree), path.join(dir, tree), (js) => js);
    writeFileSync(path.join(dir, 'child.js'), CHILD);
    return {
      baseline: { label: 'kplus.Deployment', run: () => runChild(dir, 'plain') },
      candidate: { label: 'WindowsDeployment', run: () => runChild(dir, 'windows') },
      teardown: () => rmSync(dir, { recursive: true, force: true }),
    };
  },
});
