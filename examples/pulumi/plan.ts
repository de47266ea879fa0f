/**
 * `npm run plan`: runs every example program under Pulumi mocks (no account, no CLI, no network) and prints, per
 * cloud, the resources it would create with their Windows-relevant inputs and the policy pack's verdict.
 * Each program runs in its own process (`plan-cloud.ts`): the Pulumi runtime's state is global to a process.
 * Exit code: 0 all pass; 1 a mandatory policy violation; 2 a program failed.
 * Usage: `tsx examples/pulumi/plan.ts [eks|aks|gke ...]` (default: all clouds).
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { CLOUDS, isCloud, type Cloud } from './index';

const CHILD = path.join(__dirname, 'plan-cloud.ts');

interface CloudPlan {
  readonly cloud: Cloud;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one cloud's program in a child process, with the same TypeScript loader as this one (tsx). */
function planCloud(cloud: Cloud): Promise<CloudPlan> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, CHILD, cloud], {
      cwd: path.join(__dirname, '..', '..'),
      env: { ...process.env, PULUMI_DEBUG_PROMISE_LEAKS: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ cloud, code: code ?? 2, stdout, stderr }));
  });
}

/** Warnings the programs logged (`pulumi.log.warn`), without Node's and npm's own noise. */
function programWarnings(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('warning:') && !l.includes('will not show as a stack output'))
    .map((l) => `  ${l}`);
}

export async function main(argv: readonly string[]): Promise<number> {
  const asked = argv.length > 0 ? argv : CLOUDS;
  const unknown = asked.filter((c) => !isCloud(c));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown cloud(s): ${unknown.join(', ')}. Use ${CLOUDS.join(', ')}.\n`);
    return 2;
  }
  const plans = await Promise.all(asked.filter(isCloud).map(planCloud));
  for (const p of plans) {
    process.stdout.write(p.stdout.endsWith('\n') ? p.stdout : `${p.stdout}\n`);
    const warnings = programWarnings(p.stderr);
    if (warnings.length > 0) process.stdout.write(`  program warnings:\n${warnings.map((w) => `  ${w}`).join('\n')}\n`);
    if (p.code === 2 && p.stderr.trim() !== '') process.stdout.write(`${p.stderr}\n`);
    process.stdout.write('\n');
  }
  const summary = plans.map(
    (p) => `${p.cloud} ${p.code === 0 ? 'PASS' : p.code === 1 ? 'FAIL (policy)' : 'FAIL (program)'}`,
  );
  process.stdout.write(`plan: ${summary.join(', ')}\n`);
  return Math.max(0, ...plans.map((p) => p.code));
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(2);
    },
  );
}
