#!/usr/bin/env node
/** The `k8s-windows` bin: wires `run` to the process. Exit code via `process.exitCode`, so output is flushed. */
import { run } from './run';

// `k8s-windows lint … | head` closes stdout early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') process.stderr.write(`k8s-windows: cannot write output: ${err.message}\n`);
  process.exit(err.code === 'EPIPE' ? (process.exitCode ?? 0) : 2);
});

void run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  isTTY: process.stdout.isTTY === true,
  cwd: process.cwd(),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
