/**
 * Import cost (DESIGN.md, Performance): `require('k8s-windows/cdk8s')` vs `require('cdk8s-plus-28')`, each in fresh
 * Node.js processes so module caches do not carry over. The library is transpiled once in setup (untimed) to plain
 * CommonJS, as the published package ships it, so neither side pays a TypeScript loader. The candidate also checks
 * that no `@pulumi` module was loaded: a cdk8s user must never pay for Pulumi.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { defineBench } from './harness';

const ROOT = path.resolve(__dirname, '..');
/** The layers `k8s-windows/cdk8s` is built from. */
const LAYERS = ['core', 'registry', 'cdk8s'];
/** Fresh processes per timed repetition, to average out process start-up noise. */
const PROCESSES_PER_RUN = 5;
/** Exit code of a candidate process that found a `@pulumi` module loaded. */
const PULUMI_LOADED_EXIT = 3;

function transpileTree(fromDir: string, toDir: string): void {
  for (const entry of readdirSync(fromDir)) {
    const from = path.join(fromDir, entry);
    if (statSync(from).isDirectory()) {
      transpileTree(from, path.join(toDir, entry));
    } else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) {
      const out = ts.transpileModule(readFileSync(from, 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
        fileName: from,
      });
      mkdirSync(toDir, { recursive: true });
      writeFileSync(path.join(toDir, entry.replace(/\.ts$/, '.js')), out.outputText);
    }
  }
}

function requireScript(modulePath: string, checkPulumi: boolean): string {
  const check = checkPulumi
    ? `const p = Object.keys(require.cache).filter((k) => /[\\\\/]@pulumi[\\\\/]/.test(k));` +
      `if (p.length > 0) { process.stderr.write('loaded ' + p[0] + '\\n'); process.exit(${PULUMI_LOADED_EXIT}); }`
    : '';
  return `require(${JSON.stringify(modulePath)});${check}`;
}

function spawnRequire(script: string): void {
  const env = { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') };
  for (let i = 0; i < PROCESSES_PER_RUN; i++) {
    const res = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
    if (res.status === PULUMI_LOADED_EXIT) throw new Error(`k8s-windows/cdk8s loaded Pulumi: ${res.stderr.trim()}`);
    if (res.status !== 0) throw new Error(`require failed (exit ${String(res.status)}): ${res.stderr.trim()}`);
  }
}

export default defineBench({
  title: `require('k8s-windows/cdk8s') vs require('cdk8s-plus-28'), fresh processes (${PROCESSES_PER_RUN} per round; candidate asserts no @pulumi module loaded)`,
  aim: 1.15,
  warmup: 1,
  rounds: 5,
  setup() {
    const outDir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-bench-import-'));
    for (const layer of LAYERS) transpileTree(path.join(ROOT, 'lib', layer), path.join(outDir, layer));
    const candidate = requireScript(path.join(outDir, 'cdk8s', 'index.js'), true);
    const baseline = requireScript('cdk8s-plus-28', false);
    return {
      baseline: { label: "require('cdk8s-plus-28')", run: () => spawnRequire(baseline) },
      candidate: { label: "require('k8s-windows/cdk8s'), no @pulumi", run: () => spawnRequire(candidate) },
      teardown: () => rmSync(outDir, { recursive: true, force: true }),
    };
  },
});
