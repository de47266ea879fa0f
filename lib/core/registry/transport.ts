/**
 * HTTP to registries: Node's global `fetch` with a timeout per request, retries with exponential backoff on network
 * errors, 429 and 5xx, a bound on concurrent requests, and the registry auth handshake (a 401 names a `Bearer`
 * token realm or `Basic`; see challenge.ts). Tokens and Authorization headers live in memory only.
 */
import { parseChallenges, type AuthChallenge } from './challenge';
import { type DockerCredentials, type RegistryCredential } from './credentials';
import { LookupProblem } from './lookup';

/** Where requests for one registry go: the registry itself, or a mirror of it. */
export interface Endpoint {
  /** `https://registry-1.docker.io`, `http://127.0.0.1:5000` (no trailing slash, no `/v2`). */
  readonly url: string;
  /** The Docker config key its credentials are found under: the registry, or the mirror's host. */
  readonly credentialKey: string;
  /** For messages: `Registry 127.0.0.1:5000`, `Mirror http://127.0.0.1:5001 of docker.io`. */
  readonly label: string;
}

export interface TransportOptions {
  readonly credentials: DockerCredentials;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
}

export interface FetchedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

/** The most a manifest or config may weigh; registries cap manifests at 4 MiB. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A counting semaphore. */
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

/** `ECONNREFUSED`, `timed out after 10000 ms`: why a request failed, without its URL's query. */
function describeError(error: unknown, timeoutMs: number): string {
  // Duck-typed: fetch's errors may come from another realm (a test runner's VM context), where instanceof fails.
  const { name, message, cause } = (error ?? {}) as { name?: unknown; message?: unknown; cause?: unknown };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const { code, message: causeMessage } = (cause ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return code;
  if (typeof causeMessage === 'string') return causeMessage;
  return typeof message === 'string' ? message : String(error);
}

const ANONYMOUS = 'an anonymous token';
/** The OAuth2 client_id the token service is told (the docker CLI sends `docker`). */
const OAUTH_CLIENT_ID = 'k8s-windows';

/** What to do when a registry wants credentials the Docker config does not have. */
function loginHint(endpoint: Endpoint): string {
  return `Run \`docker login ${endpoint.credentialKey}\` (or add a credential helper) to give the resolver credentials.`;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class RegistryTransport {
  private readonly limiter: Limiter;
  /** Authorization header values by endpoint and repository. */
  private readonly authorizations = new Map<string, string>();

  constructor(private readonly options: TransportOptions) {
    this.limiter = new Limiter(options.concurrency);
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
      endpoint,
      url,
      { Accept: accept, ...(known ? { Authorization: known } : {}) },
      method,
    );
    if (response.status !== 401) return this.checkForbidden(endpoint, response);
    const { authorization, what } = await this.authorize(endpoint, repository, response.headers);
    response = await this.send(endpoint, url, { Accept: accept, Authorization: authorization }, method);
    if (response.status === 401) {
      // Docker Hub answers so for a repository that does not exist too, so as not to tell which.
      const hint = what === ANONYMOUS ? `: it does not exist, or needs credentials. ${loginHint(endpoint)}` : '.';
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

  /** The Authorization header a 401 challenge asks for, and how it was obtained (for messages). */
  private async authorize(
    endpoint: Endpoint,
    repository: string,
    headers: Headers,
  ): Promise<{ authorization: string; what: string }> {
    const challenges = parseChallenges(headers.get('www-authenticate'));
    const bearer = challenges.find((challenge) => challenge.scheme === 'bearer' && challenge.params.realm);
    const basic = challenges.find((challenge) => challenge.scheme === 'basic');
    const credential = await this.options.credentials.get(endpoint.credentialKey);
    if (bearer) {
      const token = await this.token(endpoint, repository, bearer, credential);
      return {
        authorization: `Bearer ${token}`,
        what: credential
          ? `the token got with ${credential.identityToken !== undefined ? 'the identity token from ' : ''}${credential.source}`
          : ANONYMOUS,
      };
    }
    if (basic) {
      if (!credential) {
        throw new LookupProblem(
          'unauthorized',
          `${endpoint.label} requires credentials for ${repository}, and the Docker config in ${this.options.credentials.dir} has none for ${endpoint.credentialKey}. ${loginHint(endpoint)}`,
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

  /** Gets a token from a Bearer challenge's realm, anonymously or with Basic credentials. */
  private async token(
    endpoint: Endpoint,
    repository: string,
    challenge: AuthChallenge,
    credential: RegistryCredential | undefined,
  ): Promise<string> {
    let realm: URL;
    try {
      realm = new URL(challenge.params.realm!);
    } catch {
      throw new LookupProblem('unauthorized', `${endpoint.label} named a token realm that is not a URL.`);
    }
    const scope = challenge.params.scope ?? `repository:${repository}:pull`;
    const realmLabel = `The token service ${realm.origin}${realm.pathname} of ${endpoint.label}`;
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
        { ...endpoint, label: realmLabel },
        realm.toString(),
        {
          Accept: 'application/json',
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        'POST',
        form.toString(),
      );
    } else {
      if (challenge.params.service) realm.searchParams.set('service', challenge.params.service);
      realm.searchParams.set('scope', scope);
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (credential) {
        headers.Authorization = `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`;
      }
      response = await this.send({ ...endpoint, label: realmLabel }, realm.toString(), headers);
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
    const token = typeof answer.token === 'string' ? answer.token : answer.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new LookupProblem('unauthorized', `${realmLabel} answered with no token.`);
    }
    return token;
  }

  /** One request with timeout and retries, under the concurrency bound; the body read in full. */
  private async send(
    endpoint: Endpoint,
    url: string,
    headers: Record<string, string>,
    method: 'GET' | 'HEAD' | 'POST' = 'GET',
    body?: string,
  ): Promise<FetchedResponse> {
    const { retries, retryDelayMs, timeoutMs } = this.options;
    let failure = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(retryDelayMs * 2 ** (attempt - 1));
      try {
        const response = await this.limiter.run(async () => {
          const signal = AbortSignal.timeout(timeoutMs);
          const answer = await fetch(url, { method, headers, signal, redirect: 'follow', ...(body ? { body } : {}) });
          const length = Number(answer.headers.get('content-length') ?? 0);
          if (length > MAX_BODY_BYTES) {
            await answer.body?.cancel();
            throw new LookupProblem('unreachable', `${endpoint.label} sent ${length} bytes, more than a manifest.`);
          }
          return { status: answer.status, headers: answer.headers, body: Buffer.from(await answer.arrayBuffer()) };
        });
        if (response.status === 429 || response.status >= 500) {
          failure = `answered HTTP ${response.status}`;
          continue;
        }
        return response;
      } catch (error) {
        if (error instanceof LookupProblem) throw error;
        failure = `did not answer (${describeError(error, timeoutMs)})`;
      }
    }
    const tries = retries + 1;
    throw new LookupProblem(
      'unreachable',
      `${endpoint.label} ${failure} after ${tries} ${tries === 1 ? 'try' : 'tries'}.`,
    );
  }
}
