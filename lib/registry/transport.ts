/**
 * HTTP to registries (http.ts) with a timeout per request, retries with exponential backoff on network errors, 429
 * and 5xx, a bound on concurrent requests, the resolution's deadline over all of it; a 401 is answered once through
 * the auth handshake (auth.ts), whose Authorization is kept per endpoint and repository, in memory only. A redirect
 * to another origin (scheme, host or port) carries no Authorization. A host that does not resolve (ENOTFOUND,
 * EAI_AGAIN) fails at once and is not asked again in the run; nor is one that did not answer any try.
 */
import { RegistryAuth } from './auth';
import type { DockerCredentials } from './credentials';
import { combinedSignal, pause, type Deadline } from './deadline';
import type { Endpoint, FetchedResponse } from './endpoint';
import { BodyTooLarge, HttpClient, RequestAborted, type HttpClientOptions } from './http';
import type { ImageLookupCause } from '../core/model/image-lookup';
import { LookupProblem } from './lookup';

export type { Endpoint, FetchedResponse } from './endpoint';

export interface TransportOptions {
  readonly credentials: DockerCredentials;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly deadline: Deadline;
  /** Hosts (`host` or `host:port`) plain HTTP may carry credentials to, besides loopback. */
  readonly credentialHttpHosts: ReadonlySet<string>;
  readonly ca?: HttpClientOptions['ca'];
  readonly lookup?: HttpClientOptions['lookup'];
  /** The HTTP client (a test seam: a property test's fake registry). @default - an HttpClient */
  readonly client?: Pick<HttpClient, 'send' | 'close'>;
}

/** The most a manifest, config or token answer may weigh; registries cap manifests at 4 MiB. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Redirects followed for one request (a blob's redirect to its storage is one); more is a loop. */
export const MAX_REDIRECTS = 5;

/** A counting semaphore that gives up on a waiter when its signal aborts. */
class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** `ECONNREFUSED`, `no answer within 10000 ms`: why a request failed, without its URL's query. */
function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof RequestAborted) return `no answer within ${timeoutMs} ms`;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return code;
  return typeof message === 'string' ? message : String(error);
}

/** The error codes of a host name that does not resolve: no network, or a name only a mirror network knows. */
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);

/** A certificate the resolver does not trust: asking again cannot help. */
function untrustedCertificate(code: string): boolean {
  return code.startsWith('ERR_TLS_CERT') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code);
}

export class RegistryTransport {
  private readonly limiter: Limiter;
  private readonly http: Pick<HttpClient, 'send' | 'close'>;
  private readonly auth: RegistryAuth;
  /** Authorization header values by endpoint and repository. */
  private readonly authorizations = new Map<string, string>();
  /** Origins that did not resolve or answer in this run, with why: not asked again. */
  private readonly down = new Map<string, { readonly reason: string; readonly code: ImageLookupCause }>();
  /** Network failures in a row per origin, over all requests: as many as one request's tries mark it down. */
  private readonly failuresInARow = new Map<string, number>();

  constructor(private readonly options: TransportOptions) {
    this.limiter = new Limiter(options.concurrency);
    this.http =
      options.client ??
      new HttpClient({
        maxSockets: options.concurrency,
        ...(options.ca !== undefined ? { ca: options.ca } : {}),
        ...(options.lookup !== undefined ? { lookup: options.lookup } : {}),
      });
    this.auth = new RegistryAuth({
      credentials: options.credentials,
      credentialHttpHosts: options.credentialHttpHosts,
      send: (label, url, headers, method, body) => this.send(label, url, headers, method, body),
    });
  }

  /**
   * GET (or HEAD) `path` (`/v2/<name>/manifests/<ref>`) from an endpoint, answering a 401 challenge once. Returns any
   * status but 401/403 and retryable failures; throws LookupProblem for those.
   */
  async get(
    endpoint: Endpoint,
    repository: string,
    path: string,
    accept: string,
    method: 'GET' | 'HEAD' = 'GET',
  ): Promise<FetchedResponse> {
    const key = `${endpoint.url} ${repository}`;
    const known = this.authorizations.get(key);
    const url = `${endpoint.url}${path}`;
    let response = await this.send(
      endpoint.label,
      url,
      { Accept: accept, ...(known ? { Authorization: known } : {}) },
      method,
    );
    if (response.status !== 401) return this.checkForbidden(endpoint, response);
    const grant = await this.auth.authorize(endpoint, repository, response.headers);
    const { authorization } = grant;
    response = await this.send(endpoint.label, url, { Accept: accept, Authorization: authorization }, method);
    if (response.status === 401) throw this.auth.refusal(endpoint, repository, grant);
    this.authorizations.set(key, authorization);
    return this.checkForbidden(endpoint, response);
  }

  private checkForbidden(endpoint: Endpoint, response: FetchedResponse): FetchedResponse {
    if (response.status === 403) {
      throw new LookupProblem('unauthorized', 'access-denied', `${endpoint.label} denied access (HTTP 403).`);
    }
    return response;
  }

  /**
   * One request: redirects followed (at most MAX_REDIRECTS; another origin gets no Authorization; 303, and 301/302
   * after a POST, become a GET), each hop with retries.
   */
  private async send(
    label: string,
    url: string,
    headers: Record<string, string>,
    method: 'GET' | 'HEAD' | 'POST' = 'GET',
    body?: string,
  ): Promise<FetchedResponse> {
    let target = new URL(url);
    let hopHeaders = { ...headers };
    let hopMethod = method;
    let hopBody = body;
    for (let hops = 0; ; hops++) {
      const response = await this.attempt(label, target, hopHeaders, hopMethod, hopBody);
      const location = response.headers.get('location');
      if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response;
      if (hops === MAX_REDIRECTS) {
        throw new LookupProblem(
          'unreachable',
          'redirect',
          `${label} redirected ${target.pathname} more than ${MAX_REDIRECTS} times (a redirect loop?).`,
        );
      }
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        throw new LookupProblem(
          'unreachable',
          'redirect',
          `${label} redirected ${target.pathname} to something that is not a URL.`,
        );
      }
      if (next.protocol !== 'https:' && next.protocol !== 'http:') {
        throw new LookupProblem(
          'unreachable',
          'redirect',
          `${label} redirected ${target.pathname} to a ${next.protocol} URL.`,
        );
      }
      if (next.origin !== target.origin) {
        hopHeaders = Object.fromEntries(
          Object.entries(hopHeaders).filter(([name]) => name.toLowerCase() !== 'authorization'),
        );
      }
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && hopMethod === 'POST')) {
        hopMethod = 'GET';
        hopBody = undefined;
        hopHeaders = Object.fromEntries(
          Object.entries(hopHeaders).filter(([name]) => name.toLowerCase() !== 'content-type'),
        );
      }
      target = next;
    }
  }

  /** The deadline's problem for a request to `label`. */
  private pastDeadline(label: string, started: boolean): LookupProblem {
    const { deadline } = this.options;
    return new LookupProblem(
      'unreachable',
      'deadline',
      `${label} ${started ? 'did not answer before' : 'was not asked:'} ${deadline.message()}.`,
    );
  }

  /** One hop with timeout and retries, under the concurrency bound and the deadline; the body read under the cap. */
  private async attempt(
    label: string,
    url: URL,
    headers: Record<string, string>,
    method: 'GET' | 'HEAD' | 'POST',
    body: string | undefined,
  ): Promise<FetchedResponse> {
    const { retries, retryDelayMs, timeoutMs, deadline } = this.options;
    const origin = url.origin;
    let failure = '';
    let failureCode: ImageLookupCause = 'no-answer';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await pause(retryDelayMs * 2 ** (attempt - 1), deadline.signal);
      const down = this.down.get(origin);
      if (down !== undefined)
        throw new LookupProblem(
          'unreachable',
          down.code,
          `${label} ${down.reason} (earlier in this run; not asked again).`,
        );
      if (deadline.passed) throw this.pastDeadline(label, attempt > 0);
      let started = false;
      try {
        const response = await this.limiter.run(async () => {
          // Checked again once a slot is free: the wait may have outlasted the deadline or the host.
          if (deadline.passed) throw this.pastDeadline(label, false);
          const downNow = this.down.get(origin);
          if (downNow !== undefined) {
            throw new LookupProblem(
              'unreachable',
              downNow.code,
              `${label} ${downNow.reason} (earlier in this run; not asked again).`,
            );
          }
          started = true;
          const request = combinedSignal(timeoutMs, deadline.signal);
          try {
            return await this.http.send(url, {
              method,
              headers,
              ...(body !== undefined ? { body } : {}),
              signal: request.signal,
              maxBytes: MAX_BODY_BYTES,
            });
          } finally {
            request.dispose();
          }
        });
        this.failuresInARow.delete(origin);
        if (response.status === 429 || response.status >= 500) {
          failure = `answered HTTP ${response.status}`;
          failureCode = 'http-status';
          continue;
        }
        return response;
      } catch (error) {
        if (error instanceof LookupProblem) throw error;
        if (error instanceof BodyTooLarge) {
          throw new LookupProblem(
            'invalid',
            'too-large',
            `${label} ${error.announced !== undefined ? `announced ${error.announced} bytes` : `sent more than ${MAX_BODY_BYTES} bytes`} for ${url.pathname}, more than any manifest or config (the cap is ${MAX_BODY_BYTES} bytes).`,
          );
        }
        if (deadline.passed) throw this.pastDeadline(label, started);
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && UNRESOLVED.has(code)) {
          const reason = `cannot be reached: its host ${url.hostname} does not resolve (${code})`;
          this.down.set(origin, { reason, code: 'host-unresolved' });
          throw new LookupProblem('unreachable', 'host-unresolved', `${label} ${reason}.`);
        }
        if (typeof code === 'string' && untrustedCertificate(code)) {
          const reason = `presented a TLS certificate the resolver does not trust (${code}): give its CA in NODE_EXTRA_CA_CERTS`;
          this.down.set(origin, { reason, code: 'certificate-untrusted' });
          throw new LookupProblem('unreachable', 'certificate-untrusted', `${label} ${reason}.`);
        }
        failure = `did not answer (${describeError(error, timeoutMs)})`;
        failureCode = 'no-answer';
        // A host that failed as many tries in a row as a request has, over all requests, is not asked again this
        // run: 48 images of a dead registry cost about one image's wait, not 48.
        const inARow = (this.failuresInARow.get(origin) ?? 0) + 1;
        this.failuresInARow.set(origin, inARow);
        if (inARow >= retries + 1 && !this.down.has(origin))
          this.down.set(origin, { reason: `${failure} ${inARow} times in a row`, code: 'no-answer' });
      }
    }
    const tries = retries + 1;
    throw new LookupProblem(
      'unreachable',
      failureCode,
      `${label} ${failure} after ${tries} ${tries === 1 ? 'try' : 'tries'}.`,
    );
  }

  /** Closes idle sockets. */
  close(): void {
    this.http.close();
  }
}
