/**
 * What a command is given to talk to the world (the sinks, standard input, the working directory, the environment)
 * and what it answers with: the exit code. The environment's say on output (colour, the GitHub checkout) is read
 * here too, so no writer reads `process.env` itself.
 */
import type { WriteFs } from './write';

/** Anything with `write(string)`: a process stream, or a test sink. */
export interface OutputSink {
  write(chunk: string): unknown;
}

export interface CliIO {
  readonly stdout: OutputSink;
  readonly stderr: OutputSink;
  /**
   * What `-` reads: a stream (process.stdin) or the text itself.
   * @default - none: `-` is reported as unreadable input
   */
  readonly stdin?: AsyncIterable<string | Uint8Array> | string;
  /**
   * Whether stdout is a terminal (colour in text output).
   * @default false
   */
  readonly isTTY?: boolean;
  /**
   * Directory that relative paths are resolved against and shown relative to.
   * @default process.cwd()
   */
  readonly cwd?: string;
  /**
   * Environment for NO_COLOR / FORCE_COLOR / TERM.
   * @default process.env
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The file operations `fix --write` uses (a test injects a full disk or a concurrent writer).
   * @default node's fs.promises
   */
  readonly fs?: WriteFs;
}

/** Exit codes: documented in `k8s-windows lint --help`. */
export const EXIT_OK = 0;
export const EXIT_LINT_ERRORS = 1;
export const EXIT_USAGE = 2;

/**
 * Colour when stdout is a terminal, unless NO_COLOR is set (https://no-color.org) or TERM is dumb; FORCE_COLOR
 * overrides both ways (`0`/`false` off, anything else on), as Node's own tty does.
 */
export function useColor(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** `GITHUB_WORKSPACE`, where a runner checked the repository out: annotations name files relative to it. */
export function githubWorkspace(env: Readonly<Record<string, string | undefined>>): { workspace?: string } {
  const workspace = env.GITHUB_WORKSPACE;
  return workspace !== undefined && workspace !== '' ? { workspace } : {};
}
