/**
 * Running a render tool (Helm, Kustomize, kubectl) as a bounded child: a minimal environment, output held to the
 * input limit, stderr kept as a bounded head and tail, and one deadline over every render of the run. When the
 * deadline passes the tool's whole process group is stopped (SIGTERM, then SIGKILL after a grace), so a Helm that
 * ignores SIGTERM, or a `git` that Kustomize started, does not outlive the run.
 */
import { spawn } from 'node:child_process';
import { printable } from './format-text';
import { formatBytes } from './read';
import { formatSeconds } from '../registry/deadline';

/** All renders of one run end by this by default (`--render-timeout`). */
export const DEFAULT_RENDER_TIMEOUT_MS = 300_000;

/** How long a stopped tool gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000;

/** How much of a tool's stderr is kept at each end: enough for Helm's and Kustomize's longest real messages. */
export const STDERR_KEPT_BYTES = 8 * 1024;

/** The most of a tool's stderr a problem message quotes, at each end (a 200 MB line is not a message). */
const MESSAGE_KEPT_CHARS = 1_000;

/**
 * The one deadline of all renders in a run: the clock starts at the first render, and every render after it gets
 * what is left.
 */
export class RenderDeadline {
  private endsAt?: number;

  /** @param ms Milliseconds for all renders together. */
  constructor(readonly ms: number = DEFAULT_RENDER_TIMEOUT_MS) {}

  /** Milliseconds left; starts the clock. */
  remaining(): number {
    this.endsAt ??= Date.now() + this.ms;
    return Math.max(0, this.endsAt - Date.now());
  }

  /** `the render deadline of 300 s for all renders (--render-timeout)`. */
  describe(): string {
    return `the render deadline of ${formatSeconds(this.ms)} for all renders of the run (--render-timeout)`;
  }
}

/**
 * Environment variables a render tool is given from the caller's. Everything else is left out: the tools run on a
 * repository's content, and a template can print what they can read (`.Files.Get`, `env` in a plugin), so a CI
 * runner's tokens must not be there. PATH finds the tools (and Kustomize's git), HOME and the XDG directories hold
 * Helm's caches and config, the HELM_* and KUSTOMIZE_* variables are set on purpose for these tools, and the rest
 * are what a process needs to run at all (temporary directory, locale; on Windows, the system's folders).
 */
const PASSED_VARIABLES: readonly string[] = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  // Windows: the folders a program looks itself up in, and how it finds executables.
  'SYSTEMROOT',
  'WINDIR',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PATHEXT',
  'COMSPEC',
];

/** Passed too when the user allows remote resources: how the tools reach the network as the user's own would. */
const NETWORK_VARIABLES: readonly string[] = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'SSH_AUTH_SOCK',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
];

/** Prefixes of variables set on purpose for the tools. */
const PASSED_PREFIXES: readonly string[] = ['HELM_', 'KUSTOMIZE_'];

/**
 * The environment a render tool runs in. Without `network`, git (which Kustomize runs for a remote base) may use
 * no protocol at all and HTTP goes to a proxy that does not exist: the static check (render-confine.ts) refuses
 * remote entries first, and this holds if a field it does not know names one.
 */
export function toolEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly network: boolean },
): Record<string, string> {
  const names = options.network ? [...PASSED_VARIABLES, ...NETWORK_VARIABLES] : PASSED_VARIABLES;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    // Windows names variables case-insensitively (Path, SystemRoot); proxies are read in both cases everywhere.
    const upper = name.toUpperCase();
    if (names.includes(upper) || PASSED_PREFIXES.some((p) => upper.startsWith(p))) out[name] = value;
  }
  out.GIT_TERMINAL_PROMPT = '0';
  if (!options.network) {
    // A list naming no real protocol: git behaves as if every protocol were `protocol.<name>.allow=never`.
    out.GIT_ALLOW_PROTOCOL = 'none';
    // Port 9 (discard) on loopback: nothing answers, so an HTTP fetch fails at once instead of leaving the host.
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) out[name] = 'http://127.0.0.1:9';
    for (const name of ['NO_PROXY', 'no_proxy']) out[name] = '';
  }
  return out;
}

export type ToolRun =
  | { readonly kind: 'ok'; readonly stdout: string }
  | { readonly kind: 'missing' }
  | {
      readonly kind: 'failed';
      readonly message: string;
      /** `exit`: the tool ran and said why it failed; otherwise a bound stopped it (or it could not start). */
      readonly reason: 'exit' | 'deadline' | 'output' | 'start';
    };

export interface ToolLimits {
  /** The most bytes of output taken: the input limit, as for a file. */
  readonly maxOutputBytes: number;
  readonly deadline: RenderDeadline;
}

/**
 * Runs `program` with `args` in `cwd`. Resolves to its output, `missing` when the program is not installed, or
 * why it failed (its stderr, bounded; the deadline; the output limit).
 */
export function runTool(
  program: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  limits: ToolLimits,
): Promise<ToolRun> {
  const remaining = limits.deadline.remaining();
  if (remaining === 0) {
    return Promise.resolve({
      kind: 'failed',
      reason: 'deadline',
      message: `not started: ${limits.deadline.describe()} passed before its turn.`,
    });
  }
  return new Promise((resolve) => {
    // Its own process group (POSIX), so stopping it stops what it started. Windows has no groups to signal:
    // there the tool itself is stopped.
    const group = process.platform !== 'win32';
    const child = spawn(program, [...args], {
      cwd,
      env: { ...env },
      detached: group,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const stderr = new BoundedText(STDERR_KEPT_BYTES);
    let stopped: 'deadline' | 'output' | undefined;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;

    const signal = (name: NodeJS.Signals): void => {
      try {
        if (group && child.pid !== undefined) process.kill(-child.pid, name);
        else child.kill(name);
      } catch {
        // Already gone.
      }
    };
    const stop = (why: 'deadline' | 'output'): void => {
      if (stopped !== undefined) return;
      stopped = why;
      signal('SIGTERM');
      killTimer = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    const deadlineTimer = setTimeout(() => stop('deadline'), remaining);
    deadlineTimer.unref();

    const finish = (run: ToolRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadlineTimer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(run);
    };

    child.stdout?.on('data', (chunk: Buffer) => {
      if (stopped !== undefined) return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > limits.maxOutputBytes) return stop('output');
      stdout.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return finish({ kind: 'missing' });
      finish({ kind: 'failed', reason: 'start', message: `could not be started: ${err.message}` });
    });
    // 'exit', not 'close': a grandchild holding the pipes open must not keep the run waiting.
    child.on('exit', (code, sig) => {
      // What the tool started and left behind goes with it: a run leaves no process of a render running.
      signal('SIGKILL');
      // Let the pipes drain what the tool wrote before it exited (they close at once unless a child holds them).
      const drained = new Promise<void>((done) => {
        let open = 2;
        const one = (): void => {
          open -= 1;
          if (open === 0) done();
        };
        if (child.stdout === null || child.stdout.readableEnded) one();
        else child.stdout.once('close', one);
        if (child.stderr === null || child.stderr.readableEnded) one();
        else child.stderr.once('close', one);
        setTimeout(done, KILL_GRACE_MS).unref();
      });
      void drained.then(() => {
        switch (stopped) {
          case 'deadline':
            return finish({
              kind: 'failed',
              reason: 'deadline',
              message: `it did not finish before ${limits.deadline.describe()} passed: it was stopped, with every process it started (remote bases or chart repositories that do not answer?).`,
            });
          case 'output':
            return finish({
              kind: 'failed',
              reason: 'output',
              message: `its output is larger than the input limit of ${formatBytes(limits.maxOutputBytes)}: it was read no further (--max-input-size raises the limit).`,
            });
          case undefined:
            break;
          default: {
            const unknownStop: never = stopped;
            throw new Error(`unhandled stop ${String(unknownStop)}`);
          }
        }
        if (code === 0) return finish({ kind: 'ok', stdout: Buffer.concat(stdout, stdoutBytes).toString('utf8') });
        const said = stderr.message();
        finish({
          kind: 'failed',
          reason: 'exit',
          message: said !== '' ? said : code !== null ? `it exited with code ${code}.` : `it was ended by ${sig}.`,
        });
      });
    });
  });
}

/**
 * A stream's text kept as its first and last `keep` bytes and the count of what lies between: what a tool said
 * about why it failed is at one end or the other.
 */
export class BoundedText {
  private head = Buffer.alloc(0);
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly keep: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.head.length < this.keep) {
      const take = Math.min(this.keep - this.head.length, chunk.length);
      this.head = Buffer.concat([this.head, chunk.subarray(0, take)]);
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.keep) {
      this.tailBytes -= this.tail[0].length;
      this.tail.shift();
    }
  }

  /** Bytes pushed in all. */
  get size(): number {
    return this.total;
  }

  /**
   * The text as one line: its last ten lines when they fit, else a bounded head and tail with what was left out
   * counted. Control characters are shown escaped (printable), never written raw.
   */
  message(): string {
    const tail = Buffer.concat(this.tail, this.tailBytes);
    const kept = tail.subarray(Math.max(0, tail.length - this.keep));
    const omitted = this.total - this.head.length - kept.length;
    const text =
      omitted > 0
        ? `${this.head.toString('utf8')}\n… ${formatBytes(omitted)} left out …\n${kept.toString('utf8')}`
        : Buffer.concat([this.head, kept]).toString('utf8');
    const said = text.trim().split('\n').slice(-10).join(' ').trim();
    return shorten(printable(said));
  }
}

/** At most MESSAGE_KEPT_CHARS at each end of `text`, the rest counted. */
function shorten(text: string): string {
  if (text.length <= 2 * MESSAGE_KEPT_CHARS + 40) return text;
  const left = text.length - 2 * MESSAGE_KEPT_CHARS;
  return `${text.slice(0, MESSAGE_KEPT_CHARS)} … (${left} characters left out) … ${text.slice(-MESSAGE_KEPT_CHARS)}`;
}
