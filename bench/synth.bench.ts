/**
 * Synth overhead, warm (DESIGN.md, Performance): 1,000 `WindowsDeployment` vs 1,000 plain cdk8s-plus-28 `Deployment`
 * in one chart, measured in this long-running process after a warm-up round, so the JIT has optimized both sides
 * (`synth-fresh` measures the cold case, a new process per repetition). Each side builds its chart and renders it (`chart.toJson()`, what `cdk8s synth` and `Testing.synth`
 * call). The difference is the Windows conversion: one pod-spec clone per object in `toWindowsPodSpec`, plus the
 * construction-time checks. The library runs as tsc writes it (as the package ships it, and as `synth-fresh` runs it),
 * not as tsx runs the sources: tsx keeps function names by wrapping every closure as it is made, a cost per object
 * that no user pays.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type * as Library from '../lib/cdk8s';
import { defineBench } from './harness';
import { transpileApart } from './transpile';

const ROOT = path.resolve(__dirname, '..');

/** Deployments per chart (DESIGN.md: 1,000). */
const DEPLOYMENT_COUNT = 1_000;
/** A build-pinned image, so the Windows side pays for the image check but emits no warning. */
const IMAGE = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';

type DeploymentClass = new (scope: Chart, id: string, props: kplus.DeploymentProps) => kplus.Deployment;

function synth(outdir: string, Kind: DeploymentClass): number {
  const chart = new Chart(new App({ outdir }), 'bench');
  for (let i = 0; i < DEPLOYMENT_COUNT; i++) {
    new Kind(chart, `web${i}`, { containers: [{ image: IMAGE, portNumber: 80 }] });
  }
  return chart.toJson().length;
}

export default defineBench({
  title: `warm (one process, after warm-up): synth ${DEPLOYMENT_COUNT.toLocaleString('en-US')} WindowsDeployment vs ${DEPLOYMENT_COUNT.toLocaleString('en-US')} kplus.Deployment in one chart`,
  aim: 1.1,
  warmup: 1,
  rounds: 5,
  setup() {
    const outdir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-synth-'));
    // Under node_modules, so the transpiled library finds the same cdk8s modules as this file.
    const cache = path.join(ROOT, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const lib = mkdtempSync(path.join(cache, 'k8s-windows-bench-synth-'));
    transpileApart(ROOT, ['lib/core', 'lib/registry', 'lib/cdk8s'], lib);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the transpiled tree, loaded at run time
    const { WindowsDeployment } = require(path.join(lib, 'lib/cdk8s')) as typeof Library;
    return {
      baseline: { label: 'kplus.Deployment', run: () => synth(outdir, kplus.Deployment) },
      candidate: { label: 'WindowsDeployment', run: () => synth(outdir, WindowsDeployment) },
      teardown: () => {
        rmSync(outdir, { recursive: true, force: true });
        rmSync(lib, { recursive: true, force: true });
      },
    };
  },
});
