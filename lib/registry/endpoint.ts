/**
 * Where the resolver's requests go and what comes back: shared by the transport (transport.ts) and the auth
 * handshake (auth.ts).
 */

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

/** A response with its body read (under the size cap). */
export interface FetchedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}
