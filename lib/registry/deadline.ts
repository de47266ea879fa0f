/**
 * The deadline of a whole resolution: however many images a run names and however a registry misbehaves (never
 * answering, dripping bytes, redirecting in circles), the lookups of one resolver end by it. The clock starts at
 * the first request; its timer does not keep the process alive.
 */

/** A dead registry costs a run at most this long by default. */
export const DEFAULT_DEADLINE_MS = 30_000;

export class Deadline {
  private controller?: AbortController;
  private endsAt = 0;

  /** @param ms Milliseconds from the first request. @param what How to tell users to change it, for messages. */
  constructor(
    readonly ms: number,
    readonly what = 'the resolver option deadlineMs',
  ) {}

  /** Aborted when the deadline passes; starts the clock. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      this.endsAt = Date.now() + this.ms;
      setTimeout(() => controller.abort(), this.ms).unref();
    }
    return this.controller.signal;
  }

  get passed(): boolean {
    return this.signal.aborted;
  }

  /** Milliseconds left (starts the clock). */
  remaining(): number {
    void this.signal;
    return Math.max(0, this.endsAt - Date.now());
  }

  /** `the resolution's deadline of 30 s (--resolve-timeout) passed`. */
  message(): string {
    return `the resolution's deadline of ${formatSeconds(this.ms)} (${this.what}) passed`;
  }
}

/** `30 s`, `1.5 s`. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * A signal aborted by `timeoutMs` or by any of `signals`, and a function that releases its timer and listeners.
 * (AbortSignal.any arrived in Node.js 20.3; the engines field allows 20.0.)
 */
export function combinedSignal(
  timeoutMs: number,
  ...signals: AbortSignal[]
): { readonly signal: AbortSignal; readonly timedOut: () => boolean; readonly dispose: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  timer.unref();
  const abort = () => controller.abort();
  for (const signal of signals) {
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', abort, { once: true });
  }
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', abort);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
