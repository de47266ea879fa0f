/**
 * HTTP to registries (http.ts) with a timeout per request, retries with exponential backoff on network errors, 429
 * and 5xx, a bound on concurrent requests, the resolution's deadline over all of it, and the registry auth handshake
 * (a 401 names a `Bearer` token realm or `Basic`; see challenge.ts). Tokens and Authorization headers live in
 * memory only.
 *
 * Where credentials go (the Docker config's, and the tokens got with them):
 * - only over HTTPS, or over plain HTTP to loopback and to hosts the user marked insecure (`credentialHttpHosts`:
 *   the command line or the environment, never a repository's config file);
 * - an endpoint gets the credentials stored for its own `credentialKey` (a mirror its own host's, never the upstream
 *   registry's, as containerd's hosts.toml scopes them), and an endpoint without one gets none;
 * - a token realm is sent them only when it too may carry credentials;
 * - a redirect to another origin (scheme, host or port) carries no Authorization.
 * A host that does not resolve (ENOTFOUND, EAI_AGAIN) fails at once and is not asked again in the run; nor is one
 * that did not answer any try.
 */
import { parseChallenges, type AuthChallenge } from './challenge';
import { type CredentialAnswer, type DockerCredentials, type RegistryCredential } from './credentials';
import { combinedSignal, pause, type Deadline } from './deadline';
import { BodyTooLarge, HttpClient, RequestAborted, type HttpClientOptions } from './http';
import { LookupProblem } from './lookup';
import { isLoopback } from './reference';

/** Where requests for one registry go: the registry itself, or a mirror of it. */
export interface Endpoint {
  /** `https://registry-1.docker.io`, `http://127.0.0.1:5000` (no trailing slash, no `/v2`). */
  readonly url: string;
  /**
   * The Docker config key of the credentials this endpoint may be given: the registry, or the mirror's own host.
   * @default - none: the endpoint is asked anonymously (a mirror named in a repository's config file)
   */
  readonly credentialKey?: string;
  /** Why an endpoint without a credentialKey gets none, for messages. */
  readonly anonymousReason?: string;
  /** For messages: `Registry 127.0.0.1:5000`, `Mirror http://127.0.0.1:5001 of docker.io`. */
  readonly label: string;
}

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

export interface FetchedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
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

const ANONYMOUS = 'an anonymous token';
/** The OAuth2 client_id the token service is told (the docker CLI sends `docker`). */
const OAUTH_CLIENT_ID = 'k8s-windows';

/** What to do when a registry wants credentials the Docker config does not have. */
function loginHint(endpoint: Endpoint): string {
  return `Run \`docker login ${endpoint.credentialKey ?? new URL(endpoint.url).host}\` (or add a credential helper) to give the resolver credentials.`;
}

/** `https://host/path` of a URL, without its query (a realm's query may carry anything). */
function where(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export class RegistryTransport {
  private readonly limiter: Limiter;
  private readonly http: Pick<HttpClient, 'send' | 'close'>;
  /** Authorization header values by endpoint and repository. */
  private readonly authorizations = new Map<string, string>();
  /** Origins that did not resolve or answer in this run, with why: not asked again. */
  private readonly down = new Map<string, string>();
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
    const { authorization, what, withheld } = await this.authorize(endpoint, repository, response.headers);
    response = await this.send(endpoint.label, url, { Accept: accept, Authorization: authorization }, method);
    if (response.status === 401) {
      // Docker Hub answers so for a repository that does not exist too, so as not to tell which.
      const hint =
        what !== ANONYMOUS
          ? '.'
          : withheld !== undefined
            ? `: it does not exist, or needs credentials, and ${withheld}.`
            : `: it does not exist, or needs credentials. ${loginHint(endpoint)}`;
      throw new LookupProblem('unauthorized', `${endpoint.label} refused ${what} for ${repository}${hint}`);
    }
    this.authorizations.set(key, authorization);
    return this.checkForbidden(endpoint, response);
  }

  private checkForbidden(endpoint: Endpoint, response: FetchedResponse): FetchedResponse {
    if (response.status === 403) {
      throw new LookupProblem('unauthorized', `${endpoint.label} denied access (HTTP 403).`);
    }
    return response;
  }

  /** Whether a request to `url` may carry credentials: HTTPS, or plain HTTP to loopback or a host marked insecure. */
  private mayCarryCredentials(url: URL): boolean {
    if (url.protocol === 'https:') return true;
    if (url.protocol !== 'http:') return false;
    const hosts = this.options.credentialHttpHosts;
    return isLoopback(url.host) || hosts.has(url.host) || hosts.has(url.hostname);
  }

  /** Why credentials are not sent to `url`, or undefined when they may be. */
  private withholding(url: URL): string | undefined {
    return this.mayCarryCredentials(url)
      ? undefined
      : `credentials are not sent to ${where(url)}: plain HTTP carries them only to loopback and to registries marked insecure on the command line (--insecure-registry) or in K8S_WINDOWS_INSECURE_REGISTRIES`;
  }

  /** The credential an endpoint may be given for a request to `target` (the endpoint, or its token realm). */
  private async credentialFor(
    endpoint: Endpoint,
    target: URL,
  ): Promise<CredentialAnswer & { readonly withheld?: string }> {
    if (endpoint.credentialKey === undefined)
      return endpoint.anonymousReason ? { withheld: endpoint.anonymousReason } : {};
    const withheld = this.withholding(new URL(endpoint.url)) ?? this.withholding(target);
    // Withheld credentials are not even looked up: no helper runs for a request they cannot go with.
    if (withheld !== undefined) return { withheld };
    return this.options.credentials.find(endpoint.credentialKey);
  }

  /** The Authorization header a 401 challenge asks for, and how it was obtained (for messages). */
  private async authorize(
    endpoint: Endpoint,
    repository: string,
    headers: Headers,
  ): Promise<{ authorization: string; what: string; withheld?: string }> {
    const challenges = parseChallenges(headers.get('www-authenticate'));
    const bearer = challenges.find((challenge) => challenge.scheme === 'bearer' && challenge.params.realm);
    const basic = challenges.find((challenge) => challenge.scheme === 'basic');
    if (bearer) {
      let realm: URL;
      try {
        realm = new URL(bearer.params.realm!);
      } catch {
        throw new LookupProblem('unauthorized', `${endpoint.label} named a token realm that is not a URL.`);
      }
      if (realm.protocol !== 'https:' && realm.protocol !== 'http:') {
        throw new LookupProblem('unauthorized', `${endpoint.label} named a token realm that is not http or https.`);
      }
      const { credential, problem, withheld } = await this.credentialFor(endpoint, realm);
      const token = await this.token(endpoint, repository, realm, bearer, credential);
      return {
        authorization: `Bearer ${token}`,
        what: credential
          ? `the token got with ${credential.identityToken !== undefined ? 'the identity token from ' : ''}${credential.source}`
          : ANONYMOUS,
        ...(withheld !== undefined ? { withheld } : problem !== undefined ? { withheld: `${problem}` } : {}),
      };
    }
    if (basic) {
      const { credential, problem, withheld } = await this.credentialFor(endpoint, new URL(endpoint.url));
      if (!credential) {
        const why =
          withheld ??
          (problem !== undefined
            ? `no credentials could be read: ${problem}`
            : `the Docker config in ${this.options.credentials.dir} has none for ${endpoint.credentialKey ?? new URL(endpoint.url).host}. ${loginHint(endpoint)}`);
        throw new LookupProblem(
          'unauthorized',
          `${endpoint.label} requires credentials for ${repository}, and ${why}${why.endsWith('.') ? '' : '.'}`,
        );
      }
      if (credential.identityToken !== undefined) {
        throw new LookupProblem(
          'unauthorized',
          `${endpoint.label} asks for Basic credentials, and ${credential.source} holds an identity token, which only a token service takes. ${loginHint(endpoint)}`,
        );
      }
      const basicValue = Buffer.from(`${credential.username}:${credential.password}`).toString('base64');
      return { authorization: `Basic ${basicValue}`, what: `the credentials from ${credential.source}` };
    }
    throw new LookupProblem('unauthorized', `${endpoint.label} answered 401 with no Bearer or Basic challenge.`);
  }

  /** Gets a token from a Bearer challenge's realm, anonymously or with the credential given. */
  private async token(
    endpoint: Endpoint,
    repository: string,
    realm: URL,
    challenge: AuthChallenge,
    credential: RegistryCredential | undefined,
  ): Promise<string> {
    const scope = challenge.params.scope ?? `repository:${repository}:pull`;
    const realmLabel = `The token service ${where(realm)} of ${endpoint.label}`;
    let response: FetchedResponse;
    if (credential?.identityToken !== undefined) {
      // An identity token is exchanged with an OAuth2 refresh-token grant, as the docker CLI does
      // (https://distribution.github.io/distribution/spec/auth/oauth/): ACR's `az acr login`, for one.
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: credential.identityToken,
        client_id: OAUTH_CLIENT_ID,
        scope,
        ...(challenge.params.service ? { service: challenge.params.service } : {}),
      });
      response = await this.send(
        realmLabel,
        realm.toString(),
        { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        'POST',
        form.toString(),
      );
    } else {
      const url = new URL(realm);
      if (challenge.params.service) url.searchParams.set('service', challenge.params.service);
      url.searchParams.set('scope', scope);
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (credential) {
        headers.Authorization = `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`;
      }
      response = await this.send(realmLabel, url.toString(), headers);
    }
    if (response.status === 401 || response.status === 403) {
      const how = !credential
        ? 'an anonymous request'
        : credential.identityToken !== undefined
          ? `the identity token from ${credential.source}`
          : `the credentials from ${credential.source}`;
      throw new LookupProblem('unauthorized', `${realmLabel} refused ${how} (HTTP ${response.status}).`);
    }
    if (response.status !== 200) {
      throw new LookupProblem('unreachable', `${realmLabel} answered HTTP ${response.status}.`);
    }
    let answer: { token?: unknown; access_token?: unknown };
    try {
      answer = JSON.parse(response.body.toString('utf8')) as typeof answer;
    } catch {
      throw new LookupProblem('unauthorized', `${realmLabel} answered with no JSON token.`);
    }
    const token = typeof answer?.token === 'string' ? answer.token : answer?.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new LookupProblem('unauthorized', `${realmLabel} answered with no token.`);
    }
    return token;
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
          `${label} redirected ${target.pathname} more than ${MAX_REDIRECTS} times (a redirect loop?).`,
        );
      }
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        throw new LookupProblem(
          'unreachable',
          `${label} redirected ${target.pathname} to something that is not a URL.`,
        );
      }
      if (next.protocol !== 'https:' && next.protocol !== 'http:') {
        throw new LookupProblem('unreachable', `${label} redirected ${target.pathname} to a ${next.protocol} URL.`);
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
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await pause(retryDelayMs * 2 ** (attempt - 1), deadline.signal);
      const down = this.down.get(origin);
      if (down !== undefined)
        throw new LookupProblem('unreachable', `${label} ${down} (earlier in this run; not asked again).`);
      if (deadline.passed) throw this.pastDeadline(label, attempt > 0);
      let started = false;
      try {
        const response = await this.limiter.run(async () => {
          // Checked again once a slot is free: the wait may have outlasted the deadline or the host.
          if (deadline.passed) throw this.pastDeadline(label, false);
          const downNow = this.down.get(origin);
          if (downNow !== undefined) {
            throw new LookupProblem('unreachable', `${label} ${downNow} (earlier in this run; not asked again).`);
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
          continue;
        }
        return response;
      } catch (error) {
        if (error instanceof LookupProblem) throw error;
        if (error instanceof BodyTooLarge) {
          throw new LookupProblem(
            'invalid',
            `${label} ${error.announced !== undefined ? `announced ${error.announced} bytes` : `sent more than ${MAX_BODY_BYTES} bytes`} for ${url.pathname}, more than any manifest or config (the cap is ${MAX_BODY_BYTES} bytes).`,
          );
        }
        if (deadline.passed) throw this.pastDeadline(label, started);
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && UNRESOLVED.has(code)) {
          const reason = `cannot be reached: its host ${url.hostname} does not resolve (${code})`;
          this.down.set(origin, reason);
          throw new LookupProblem('unreachable', `${label} ${reason}.`);
        }
        if (typeof code === 'string' && untrustedCertificate(code)) {
          const reason = `presented a TLS certificate the resolver does not trust (${code}): give its CA in NODE_EXTRA_CA_CERTS`;
          this.down.set(origin, reason);
          throw new LookupProblem('unreachable', `${label} ${reason}.`);
        }
        failure = `did not answer (${describeError(error, timeoutMs)})`;
        // A host that failed as many tries in a row as a request has, over all requests, is not asked again this
        // run: 48 images of a dead registry cost about one image's wait, not 48.
        const inARow = (this.failuresInARow.get(origin) ?? 0) + 1;
        this.failuresInARow.set(origin, inARow);
        if (inARow >= retries + 1 && !this.down.has(origin))
          this.down.set(origin, `${failure} ${inARow} times in a row`);
      }
    }
    const tries = retries + 1;
    throw new LookupProblem('unreachable', `${label} ${failure} after ${tries} ${tries === 1 ? 'try' : 'tries'}.`);
  }

  /** Closes idle sockets. */
  close(): void {
    this.http.close();
  }
}
