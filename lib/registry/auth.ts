/**
 * The registry auth handshake (https://distribution.github.io/distribution/spec/auth/token/): a 401 names a
 * `Bearer` token realm or `Basic` (challenge.ts); the answer is the Authorization header the retried request
 * carries. Tokens and Authorization headers live in memory only.
 *
 * Where credentials go (the Docker config's, and the tokens got with them):
 * - only over HTTPS, or over plain HTTP to loopback and to hosts the user marked insecure (`credentialHttpHosts`:
 *   the command line or the environment, never a repository's config file; see trust.ts);
 * - an endpoint gets the credentials stored for its own `credentialKey` (a mirror its own host's, never the upstream
 *   registry's, as containerd's hosts.toml scopes them), and an endpoint without one gets none;
 * - a token realm is sent them only when it too may carry credentials.
 * (A redirect to another origin carrying no Authorization is the transport's.)
 */
import { parseChallenges, type AuthChallenge } from './challenge';
import { type CredentialAnswer, type DockerCredentials, type RegistryCredential } from './credentials';
import type { Endpoint, FetchedResponse } from './endpoint';
import { LookupProblem } from './lookup';
import { isLoopback } from './reference';

export interface AuthOptions {
  readonly credentials: DockerCredentials;
  /** Hosts (`host` or `host:port`) plain HTTP may carry credentials to, besides loopback. */
  readonly credentialHttpHosts: ReadonlySet<string>;
  /** Sends a request to a token realm (the transport's, with its retries, deadline and redirects). */
  readonly send: (
    label: string,
    url: string,
    headers: Record<string, string>,
    method?: 'GET' | 'HEAD' | 'POST',
    body?: string,
  ) => Promise<FetchedResponse>;
}

/** The Authorization header a challenge was answered with, and how it was got (for messages). */
export interface Grant {
  readonly authorization: string;
  readonly what: string;
  readonly withheld?: string;
}

export const ANONYMOUS = 'an anonymous token';
/** The OAuth2 client_id the token service is told (the docker CLI sends `docker`). */
const OAUTH_CLIENT_ID = 'k8s-windows';

/** What to do when a registry wants credentials the Docker config does not have. */
export function loginHint(endpoint: Endpoint): string {
  return `Run \`docker login ${endpoint.credentialKey ?? new URL(endpoint.url).host}\` (or add a credential helper) to give the resolver credentials.`;
}

/** `https://host/path` of a URL, without its query (a realm's query may carry anything). */
function where(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export class RegistryAuth {
  constructor(private readonly options: AuthOptions) {}

  /** Why a registry refused the grant, for a request retried with it that got a 401 again. */
  refusal(endpoint: Endpoint, repository: string, grant: Grant): LookupProblem {
    const { what, withheld } = grant;
    // Docker Hub answers so for a repository that does not exist too, so as not to tell which.
    const hint =
      what !== ANONYMOUS
        ? '.'
        : withheld !== undefined
          ? `: it does not exist, or needs credentials, and ${withheld}.`
          : `: it does not exist, or needs credentials. ${loginHint(endpoint)}`;
    return new LookupProblem(
      'unauthorized',
      what !== ANONYMOUS ? 'credentials-refused' : 'credentials-missing',
      `${endpoint.label} refused ${what} for ${repository}${hint}`,
    );
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
  async authorize(
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
        throw new LookupProblem(
          'unauthorized',
          'token-service',
          `${endpoint.label} named a token realm that is not a URL.`,
        );
      }
      if (realm.protocol !== 'https:' && realm.protocol !== 'http:') {
        throw new LookupProblem(
          'unauthorized',
          'token-service',
          `${endpoint.label} named a token realm that is not http or https.`,
        );
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
          'credentials-missing',
          `${endpoint.label} requires credentials for ${repository}, and ${why}${why.endsWith('.') ? '' : '.'}`,
        );
      }
      if (credential.identityToken !== undefined) {
        throw new LookupProblem(
          'unauthorized',
          'credentials-missing',
          `${endpoint.label} asks for Basic credentials, and ${credential.source} holds an identity token, which only a token service takes. ${loginHint(endpoint)}`,
        );
      }
      const basicValue = Buffer.from(`${credential.username}:${credential.password}`).toString('base64');
      return { authorization: `Basic ${basicValue}`, what: `the credentials from ${credential.source}` };
    }
    throw new LookupProblem(
      'unauthorized',
      'token-service',
      `${endpoint.label} answered 401 with no Bearer or Basic challenge.`,
    );
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
      response = await this.options.send(
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
      response = await this.options.send(realmLabel, url.toString(), headers);
    }
    if (response.status === 401 || response.status === 403) {
      const how = !credential
        ? 'an anonymous request'
        : credential.identityToken !== undefined
          ? `the identity token from ${credential.source}`
          : `the credentials from ${credential.source}`;
      throw new LookupProblem(
        'unauthorized',
        credential ? 'credentials-refused' : 'credentials-missing',
        `${realmLabel} refused ${how} (HTTP ${response.status}).`,
      );
    }
    if (response.status !== 200) {
      throw new LookupProblem('unreachable', 'http-status', `${realmLabel} answered HTTP ${response.status}.`);
    }
    let answer: { token?: unknown; access_token?: unknown };
    try {
      answer = JSON.parse(response.body.toString('utf8')) as typeof answer;
    } catch {
      throw new LookupProblem('unauthorized', 'token-service', `${realmLabel} answered with no JSON token.`);
    }
    const token = typeof answer?.token === 'string' ? answer.token : answer?.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new LookupProblem('unauthorized', 'token-service', `${realmLabel} answered with no token.`);
    }
    return token;
  }
}
