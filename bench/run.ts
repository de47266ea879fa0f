/**
 * `npm run bench` (`tsx bench/run.ts`): runs every registered bench, or one with `--only <name>`, and prints a
 * table of candidate/baseline ratios measured in this run. Exit 0 whatever the timings (PASS/OVER is information);
 * exit 2 only for bad usage or a bench that could not run. Two or more benches each run in a process of their own:
 * in one process, the heap one bench leaves (40 MB of manifests read, a compiler loaded) slowed the next one's
 * collections, and a warm bench measured up to a tenth over its ratio when it ran last.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { formatTable, measure, type BenchResult } from './harness';
import { BENCHES } from './registry';

const USAGE = `Usage: tsx bench/run.ts [--only <name>]... [--rounds <n>]

Benches: ${Object.keys(BENCHES).join(', ')}
`;

async function main(argv: readonly string[]): Promise<number> {
  let values: { only?: string[]; rounds?: string; help?: boolean; child?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        only: { type: 'string', multiple: true },
        rounds: { type: 'string' },
        // Internal: one bench, its result as JSON on the last line of standard output (see `apart`).
        child: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const names = values.only ?? Object.keys(BENCHES);
  const unknown = names.filter((n) => !Object.prototype.hasOwnProperty.call(BENCHES, n));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown bench ${unknown.map((n) => `'${n}'`).join(', ')}.\n${USAGE}`);
    return 2;
  }
  let rounds: number | undefined;
  if (values.rounds !== undefined) {
    rounds = Number(values.rounds);
    if (!Number.isInteger(rounds) || rounds < 1) {
      process.stderr.write(`bench: --rounds '${values.rounds}' must be a positive integer.\n`);
      return 2;
    }
  }

  const results: BenchResult[] = [];
  let failed = false;
  for (const name of names) {
    if (names.length > 1) {
      const result = apart(name, values.rounds);
      if (result === undefined) failed = true;
      else results.push(result);
      continue;
    }
    try {
      const { default: bench } = await BENCHES[name]();
      results.push(
        await measure(name, bench, {
          ...(rounds !== undefined ? { rounds } : {}),
          log: (line) => process.stderr.write(`${line}\n`),
        }),
      );
    } catch (err) {
      failed = true;
      process.stderr.write(`bench: ${name} could not run: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  if (values.child === true) {
    process.stdout.write(`\n${JSON.stringify(results[0] ?? null)}\n`);
    return failed ? 2 : 0;
  }
  if (results.length > 0) process.stdout.write(`\n${formatTable(results)}`);
  return failed ? 2 : 0;
}

/** Runs one bench in a new process (this script, with the same loader flags): its result, or undefined (said). */
function apart(name: string, rounds: string | undefined): BenchResult | undefined {
  const args = [
    ...process.execArgv,
    __filename,
    '--child',
    '--only',
    name,
    ...(rounds !== undefined ? ['--rounds', rounds] : []),
  ];
  const res = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const last = res.stdout.trimEnd().split('\n').pop() ?? '';
  let result: unknown;
  try {
    result = JSON.parse(last);
  } catch {
    result = null;
  }
  if (res.status !== 0 || result === null || typeof result !== 'object') {
    process.stderr.write(`bench: ${name} could not run (exit ${String(res.status ?? res.signal)}).\n`);
    return undefined;
  }
  return result as BenchResult;
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
