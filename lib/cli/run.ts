/**
 * The `k8s-windows` command as a function: argv and io in, exit code out. Only dispatch: each command is its own
 * module (lint.ts, fix.ts, rules.ts, facts.ts, policies.ts, doctor.ts). Everything is caught here, so users see
 * `k8s-windows: <message>` and never a stack trace; `main.ts` only wires it to the process.
 */
import { RULES } from '../core/validate';
import { parseCommand, UsageError } from './args';
import { runDoctor } from './doctor';
import { runFacts } from './facts';
import { runFix } from './fix';
import { helpText } from './help';
import { EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { runLint } from './lint';
import { packageInfo, TOOL_NAME } from './package-info';
import { runPolicies } from './policies';
import { runRules } from './rules';
import { ConfigError } from './settings';

/** What `run` is given: its io (io.ts), re-exported with it for its callers. */
export type { CliIO } from './io';

/** Runs one command; resolves to the exit code and never rejects. */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const command = parseCommand(
      argv,
      RULES.map((r) => r.id),
    );
    switch (command.kind) {
      case 'help':
        io.stdout.write(helpText(command.topic));
        return EXIT_OK;
      case 'version':
        io.stdout.write(`${packageInfo().version}\n`);
        return EXIT_OK;
      case 'rules':
        return runRules(command, io);
      case 'lint':
        return await runLint(command, io);
      case 'fix':
        return await runFix(command, io);
      case 'facts':
        return runFacts(command, io);
      case 'policies':
        return await runPolicies(command, io);
      case 'doctor':
        return await runDoctor(command, { stdout: io.stdout, stderr: io.stderr, env: io.env ?? process.env });
      default: {
        const unknownCommand: never = command;
        throw new Error(`unhandled command ${JSON.stringify(unknownCommand)}`);
      }
    }
  } catch (err) {
    if (err instanceof UsageError) {
      for (const line of err.message.split('\n')) io.stderr.write(`${TOOL_NAME}: ${line}\n`);
      const helpCommand = err.topic ? `${TOOL_NAME} ${err.topic} --help` : `${TOOL_NAME} --help`;
      io.stderr.write(`Run '${helpCommand}' for usage.\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ConfigError) {
      for (const line of err.problems) io.stderr.write(`${TOOL_NAME}: ${line}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`${TOOL_NAME}: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_USAGE;
  }
}
