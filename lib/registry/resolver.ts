/**
 * The image resolver: for each image reference, the platforms the registry lists (an OCI image index or Docker
 * manifest list gives each entry's `platform`; a single image manifest's config blob gives `os`, `os.version`,
 * `architecture` and `config.User`), read through the OCI Distribution API
 * (https://github.com/opencontainers/distribution-spec/blob/main/spec.md), with auth, mirrors and a disk cache.
 *
 * `resolve` never throws and never hangs: a missing image, a refused credential, a registry that is down or one
 * whose content fails verification is one ImageLookup result with a message that says which, and every lookup of a
 * resolver ends by its deadline (`deadlineMs`, 30 s by default).
 *
 * Bounds on what a registry can make it do: each body at most 16 MiB, counted as it streams (transport.ts); an
 * index of at most MAX_INDEX_ENTRIES entries (a bigger one is refused, not cut short, since a missing entry would
 * read as a missing platform); the manifests and configs of at most MAX_ENTRY_DETAILS entries of one index read
 * for `platformUsers` (the others keep what the index says); everything read by digest verified against it.
 */
import type { LookupFunction } from 'node:net';
import { RegistryCache, defaultCacheDir, sha256Digest } from './cache';
import { DockerCredentials } from './credentials';
import { DEFAULT_DEADLINE_MS, Deadline } from './deadline';
import { checkDigest, digestAlgorithm, digestOf, unsupportedDigestReason, verifiableDigest } from './digest';
import {
  MAX_ENTRY_DETAILS,
  imageDetails,
  indexPlatforms,
  inferMediaType,
  isIndex,
  knownMediaType,
  parseJson,
  singlePlatform,
  str,
  withDetails,
  type ImageConfig,
  type ImageDetails,
  type ManifestDocument,
} from './facts';
import { LookupProblem, MANIFEST_ACCEPT, type RegistryImageFacts, type RegistryImageLookup } from './lookup';
import { isLoopback, parseReference, registryAliases, type RegistryImageReference } from './reference';
import { RegistryTransport, type Endpoint } from './transport';

export interface ImageResolverOptions {
  /**
   * The cache directory.
   * @default - the platform's cache directory (`$XDG_CACHE_HOME/k8s-windows` or `~/.cache/k8s-windows` on Linux,
   * `~/Library/Caches/k8s-windows` on macOS, `%LOCALAPPDATA%\k8s-windows\cache` on Windows)
   */
  readonly cacheDir?: string;
  /** How long a tag → digest answer is used before the registry is asked again. @default 3600000 (one hour) */
  readonly tagTtlMs?: number;
  /**
   * Answer from the cache only; a miss is `unreachable`. A tag answer is used however old it is.
   * @default false
   */
  readonly offline?: boolean;
  /** The Docker config directory credentials are read from. @default - `$DOCKER_CONFIG`, else `~/.docker` */
  readonly dockerConfigDir?: string;
  /**
   * Mirrors by registry (`docker.io`, `ghcr.io`, `host:5000`): the URL (http or https) tried before the registry.
   * A mirror is given the credentials the Docker config has for the mirror's own host, never the registry's, and
   * only where credentials may go (HTTPS, loopback, `insecureRegistries`).
   * @default {}
   */
  readonly mirrors?: Readonly<Record<string, string>>;
  /**
   * Mirrors from a source the caller does not vouch for (a repository's config file): tried like `mirrors`, and
   * never given any credentials. A registry's `mirrors` entry wins over this one.
   * @default {}
   */
  readonly untrustedMirrors?: Readonly<Record<string, string>>;
  /**
   * When a mirror fails (down, refuses, lacks the image), ask the registry itself, as containerd and Docker do;
   * false makes the mirror's answer final, for air-gapped networks where the registry cannot be reached.
   * @default true
   */
  readonly mirrorFallback?: boolean;
  /**
   * Registries spoken to over plain HTTP, as Docker's `insecure-registries`, and given credentials over it.
   * Loopback hosts always are.
   * @default []
   */
  readonly insecureRegistries?: readonly string[];
  /**
   * Registries spoken to over plain HTTP from a source the caller does not vouch for (a repository's config file):
   * never given credentials over it.
   * @default []
   */
  readonly untrustedInsecureRegistries?: readonly string[];
  /**
   * Milliseconds all lookups of this resolver may take together, from its first request: past it, lookups the cache
   * cannot answer are `unreachable`.
   * @default 30000
   */
  readonly deadlineMs?: number;
  /** How users change the deadline, for messages (`--resolve-timeout`). @default 'the resolver option deadlineMs' */
  readonly deadlineSetting?: string;
  /** Certificates (PEM) trusted for registries besides Node.js's own. @default - Node.js's (and NODE_EXTRA_CA_CERTS) */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** Host name resolution (tests, split-horizon setups). @default - the system's (dns.lookup) */
  readonly lookup?: LookupFunction;
  /**
   * Told, once each, what degrades every lookup without failing one: a cache directory that cannot be written, a
   * Docker config that cannot be read.
   * @default - nothing is told
   */
  readonly onWarning?: (message: string) => void;
  /**
   * The operating systems (`windows`) whose index entries' manifests and configs are read too, so their platforms
   * carry the image `user`, the config's `os.version` when the index has none, and `layersSize`: two more requests
   * per entry when the cache does not have them.
   * @default [] (an index's platforms come from the index alone)
   */
  readonly platformUsers?: readonly string[];
  /** Requests in flight at once, over all lookups. @default 8 */
  readonly concurrency?: number;
  /** Milliseconds one request may take. @default 10000 */
  readonly timeoutMs?: number;
  /** Retries of a request after a network error, a 429 or a 5xx. @default 2 */
  readonly retries?: number;
  /** The first retry's delay; each next one doubles it. @default 250 */
  readonly retryDelayMs?: number;
  /** Milliseconds a `docker-credential-*` helper may run. @default 10000 */
  readonly credentialHelperTimeoutMs?: number;
}

/** One hour: long enough for a lint run and its re-runs, short enough to see a re-pushed tag the same day. */
export const DEFAULT_TAG_TTL_MS = 60 * 60 * 1000;
/** Eight requests in flight: what a registry serves one client without throttling it. */
export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_RETRY_DELAY_MS = 250;
/** How many of a repository's tags a not-found message names. */
const TAGS_SHOWN = 10;
export { MAX_ENTRY_DETAILS, MAX_INDEX_ENTRIES } from './facts';

interface Manifest {
  readonly digest: string;
  readonly mediaType: string;
  readonly body: Buffer;
}

export class ImageResolver {
  readonly cacheDir: string;
  readonly tagTtlMs: number;
  readonly offline: boolean;
  private readonly cache: RegistryCache;
  private readonly transport: RegistryTransport;
  private readonly mirrors: ReadonlyMap<string, { readonly url: string; readonly trusted: boolean }>;
  private readonly insecure: ReadonlySet<string>;
  private readonly credentials: DockerCredentials;
  private readonly warn: (message: string) => void;
  private warnedConfig = false;
  private readonly mirrorFallback: boolean;
  private readonly platformUsers: ReadonlySet<string>;
  private readonly inFlight = new Map<string, Promise<RegistryImageLookup>>();

  constructor(options: ImageResolverOptions = {}) {
    this.cacheDir = options.cacheDir ?? defaultCacheDir();
    this.tagTtlMs = options.tagTtlMs ?? DEFAULT_TAG_TTL_MS;
    this.offline = options.offline ?? false;
    const warned = new Set<string>();
    this.warn = (message) => {
      if (warned.has(message)) return;
      warned.add(message);
      options.onWarning?.(message);
    };
    this.cache = new RegistryCache(this.cacheDir, this.warn);
    const mirrors = new Map<string, { url: string; trusted: boolean }>();
    for (const [registry, url] of Object.entries(options.untrustedMirrors ?? {})) {
      mirrors.set(registry, { url: mirrorUrl(registry, url), trusted: false });
    }
    for (const [registry, url] of Object.entries(options.mirrors ?? {})) {
      mirrors.set(registry, { url: mirrorUrl(registry, url), trusted: true });
    }
    this.mirrors = mirrors;
    this.insecure = new Set([...(options.insecureRegistries ?? []), ...(options.untrustedInsecureRegistries ?? [])]);
    this.mirrorFallback = options.mirrorFallback ?? true;
    this.platformUsers = new Set(options.platformUsers ?? []);
    const deadline = new Deadline(
      positive(options.deadlineMs ?? DEFAULT_DEADLINE_MS, 'deadlineMs'),
      options.deadlineSetting,
    );
    this.credentials = new DockerCredentials(options.dockerConfigDir, options.credentialHelperTimeoutMs, deadline);
    this.transport = new RegistryTransport({
      credentials: this.credentials,
      concurrency: positive(options.concurrency ?? DEFAULT_CONCURRENCY, 'concurrency'),
      timeoutMs: positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs'),
      retries: Math.max(0, Math.floor(options.retries ?? DEFAULT_RETRIES)),
      retryDelayMs: Math.max(0, options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS),
      deadline,
      // Only the caller's own insecure registries may be sent credentials over plain HTTP.
      credentialHttpHosts: new Set(options.insecureRegistries ?? []),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      ...(options.lookup !== undefined ? { lookup: options.lookup } : {}),
    });
  }

  /** Looks one reference up. Never throws: every failure is a result with a message. */
  resolve(reference: string | RegistryImageReference): Promise<RegistryImageLookup> {
    let parsed: RegistryImageReference;
    try {
      parsed = typeof reference === 'string' ? parseReference(reference) : reference;
    } catch (error) {
      return Promise.resolve({ status: 'not-found', cause: 'reference-invalid', message: (error as Error).message });
    }
    let lookup = this.inFlight.get(parsed.canonical);
    if (!lookup) {
      lookup = this.lookup(parsed).finally(() => this.inFlight.delete(parsed.canonical));
      this.inFlight.set(parsed.canonical, lookup);
    }
    return lookup;
  }

  private async lookup(reference: RegistryImageReference): Promise<RegistryImageLookup> {
    if (!this.offline && !this.warnedConfig) {
      this.warnedConfig = true;
      const problem = await this.credentials.configProblem();
      if (problem !== undefined) this.warn(`${problem}: no credentials are read from it.`);
    }
    try {
      const manifest = await this.manifest(reference);
      return { status: 'found', facts: await this.facts(reference, manifest) };
    } catch (error) {
      if (error instanceof LookupProblem) return { status: error.status, cause: error.code, message: error.message };
      return {
        status: 'unreachable',
        cause: 'resolver-failed',
        message: `Looking up ${reference.canonical} failed: ${(error as Error).message}`,
      };
    }
  }

  /** The mirror of a registry, if it has one. */
  private mirrorOf(registry: string): { readonly url: string; readonly trusted: boolean } | undefined {
    const mirrors = registryAliases(registry).flatMap((alias) => this.mirrors.get(alias) ?? []);
    // The user's own mirror wins over a repository's, whichever alias (docker.io, index.docker.io) each names.
    return mirrors.find((mirror) => mirror.trusted) ?? mirrors[0];
  }

  /** The endpoints to try for a registry: its mirror first, when it has one, then the registry itself. */
  private endpoints(reference: RegistryImageReference): Endpoint[] {
    const endpoints: Endpoint[] = [];
    const mirror = this.mirrorOf(reference.registry);
    if (mirror) {
      endpoints.push({
        url: mirror.url,
        ...(mirror.trusted
          ? { credentialKey: new URL(mirror.url).host }
          : {
              anonymousReason:
                "a mirror named in a repository's config file is asked anonymously (name it with --registry-mirror or in K8S_WINDOWS_REGISTRY_MIRRORS to give it the credentials stored for its host)",
            }),
        label: `Mirror ${mirror.url} of ${reference.registry}`,
      });
      if (!this.mirrorFallback) return endpoints;
    }
    const scheme = isLoopback(reference.host) || this.insecure.has(reference.registry) ? 'http' : 'https';
    endpoints.push({
      url: `${scheme}://${reference.host}`,
      credentialKey: reference.registry,
      label: `Registry ${reference.registry}`,
    });
    return endpoints;
  }

  /** The manifest a reference names: from the cache when it can, else from the first endpoint that has it. */
  private async manifest(reference: RegistryImageReference): Promise<Manifest> {
    const { registry, repository, tag, digest } = reference;
    if (digest !== undefined && !verifiableDigest(digest)) {
      throw new LookupProblem(
        'invalid',
        'digest-unsupported',
        `${reference.canonical} is addressed by a digest the resolver cannot verify: ${unsupportedDigestReason(digest)}. It is not looked up.`,
      );
    }
    // A tag answer is kept apart per mirror: one mirror's answer is not another's, nor the registry's.
    const scope = this.mirrorOf(registry)?.url ?? '';
    const tagEntry = digest ? undefined : await this.cache.getTag(registry, repository, tag!, scope);
    const fresh = tagEntry && (this.offline || Date.now() - tagEntry.storedAt < this.tagTtlMs);
    const cachedDigest = digest ?? (fresh ? tagEntry.digest : undefined);
    if (cachedDigest) {
      const cached = await this.cache.getContent(cachedDigest);
      if (cached) return { digest: cachedDigest, ...cached };
    }
    if (this.offline) {
      throw new LookupProblem(
        'unreachable',
        'offline-miss',
        `Offline, and the cache in ${this.cacheDir} has no answer for ${reference.canonical}.`,
      );
    }
    if (tagEntry && !fresh) {
      // An expired tag: a HEAD tells whether it still names the cached digest, and Docker Hub does not count a
      // HEAD against its pull rate limit as it counts a GET.
      const still = await this.fromEndpoints(reference, (endpoint) => this.headDigest(endpoint, reference));
      const cached = still === tagEntry.digest ? await this.cache.getContent(still) : undefined;
      if (cached) {
        await this.cache.putTag(registry, repository, tag!, tagEntry.digest, scope);
        return { digest: tagEntry.digest, ...cached };
      }
    }
    const manifest = await this.fromEndpoints(reference, (endpoint) => this.fetchManifest(endpoint, reference));
    await this.cache.putContent(manifest.digest, manifest);
    if (!digest) await this.cache.putTag(registry, repository, tag!, manifest.digest, scope);
    return manifest;
  }

  /**
   * Tries each endpoint in turn; the last one's failure is the answer, naming what the mirror said, unless an
   * earlier endpoint sent content that failed its digest: that stays the answer's status and cause, so tampered
   * content is never reported as a registry that could not be reached.
   */
  private async fromEndpoints<T>(
    reference: RegistryImageReference,
    get: (endpoint: Endpoint) => Promise<T>,
  ): Promise<T> {
    const endpoints = this.endpoints(reference);
    const earlier: string[] = [];
    let mismatch: LookupProblem | undefined;
    for (const [index, endpoint] of endpoints.entries()) {
      try {
        return await get(endpoint);
      } catch (error) {
        if (!(error instanceof LookupProblem) || index === endpoints.length - 1) {
          if (error instanceof LookupProblem && earlier.length > 0) {
            const { status, code } = error.status === 'unreachable' && mismatch ? mismatch : error;
            throw new LookupProblem(status, code, `${error.message} (${earlier.join(' ')})`);
          }
          throw error;
        }
        if (error.code === 'digest-mismatch') mismatch ??= error;
        earlier.push(error.message);
      }
    }
    throw new LookupProblem('unreachable', 'resolver-failed', `No endpoint for ${reference.registry}.`);
  }

  /** The digest a tag names now (`Docker-Content-Digest` of a HEAD), or undefined when the registry does not say. */
  private async headDigest(endpoint: Endpoint, reference: RegistryImageReference): Promise<string | undefined> {
    const path = `/v2/${reference.repository}/manifests/${reference.tag}`;
    const response = await this.transport.get(endpoint, reference.repository, path, MANIFEST_ACCEPT, 'HEAD');
    return response.status === 200 ? (response.headers.get('docker-content-digest') ?? undefined) : undefined;
  }

  private async fetchManifest(endpoint: Endpoint, reference: RegistryImageReference): Promise<Manifest> {
    const name = reference.digest ?? reference.tag!;
    const response = await this.transport.get(
      endpoint,
      reference.repository,
      `/v2/${reference.repository}/manifests/${name}`,
      MANIFEST_ACCEPT,
    );
    if (response.status === 404) {
      throw await this.notFound(endpoint, reference, response.body);
    }
    if (response.status !== 200) {
      throw new LookupProblem(
        'unreachable',
        'http-status',
        `${endpoint.label} answered HTTP ${response.status} for ${reference.canonical}.`,
      );
    }
    const digest = sha256Digest(response.body);
    if (reference.digest)
      verify(reference.digest, response.body, `${endpoint.label} sent a manifest for ${reference.canonical}`);
    const document = parseJson<ManifestDocument>(response.body, `The manifest of ${reference.canonical}`);
    const header = response.headers.get('content-type')?.split(';')[0]?.trim();
    const mediaType = knownMediaType(header) ?? knownMediaType(document.mediaType) ?? inferMediaType(document);
    if (!mediaType) {
      throw new LookupProblem(
        'not-found',
        'manifest-unsupported',
        `${endpoint.label} has ${reference.canonical} only as ${header ?? 'an unknown manifest kind'} (schema ${document.schemaVersion ?? '?'}), not an OCI or Docker v2 manifest.`,
      );
    }
    return { digest: reference.digest ?? digest, mediaType, body: response.body };
  }

  /**
   * `NAME_UNKNOWN` (no such repository) or `MANIFEST_UNKNOWN` (no such tag or digest), in words. Some registries
   * (Distribution's filesystem storage among them) answer MANIFEST_UNKNOWN for a missing repository too, so a
   * missing tag is checked against the tag list, which also gives the tags there are.
   */
  private async notFound(endpoint: Endpoint, reference: RegistryImageReference, body: Buffer): Promise<LookupProblem> {
    const noRepository = new LookupProblem(
      'not-found',
      'repository-unknown',
      `${endpoint.label} has no repository ${reference.repository}.`,
    );
    if (errorCode(body) === 'NAME_UNKNOWN') return noRepository;
    const what = reference.digest ? `digest ${reference.digest}` : `tag ${reference.tag}`;
    const missing = `${endpoint.label} has no ${what} in ${reference.repository}`;
    const noManifest = (message: string) => new LookupProblem('not-found', 'manifest-unknown', message);
    try {
      const list = await this.transport.get(
        endpoint,
        reference.repository,
        `/v2/${reference.repository}/tags/list`,
        'application/json',
      );
      if (list.status === 404 && errorCode(list.body) === 'NAME_UNKNOWN') return noRepository;
      const tags = (JSON.parse(list.body.toString('utf8')) as { tags?: unknown }).tags;
      if (list.status === 200 && Array.isArray(tags)) {
        if (tags.length === 0) return noRepository;
        const shown = tags.filter((tag): tag is string => typeof tag === 'string').slice(0, TAGS_SHOWN);
        return noManifest(`${missing}; its tags include ${shown.join(', ')}${tags.length > TAGS_SHOWN ? ', …' : ''}.`);
      }
    } catch {
      // The tag list is a courtesy: without it, say what the manifest request said.
    }
    return noManifest(`${missing}.`);
  }

  private async config(reference: RegistryImageReference, digest: string): Promise<ImageConfig> {
    if (!verifiableDigest(digest)) {
      throw new LookupProblem(
        'invalid',
        'digest-unsupported',
        `The manifest of ${reference.canonical} names its config by a digest the resolver cannot verify (${digest.slice(0, 80)}): ${unsupportedDigestReason(digest)}.`,
      );
    }
    const cached = await this.cache.getContent(digest);
    if (cached) return parseJson<ImageConfig>(cached.body, `The image config ${digest}`);
    if (this.offline) {
      throw new LookupProblem(
        'unreachable',
        'offline-miss',
        `Offline, and the cache in ${this.cacheDir} has no image config ${digest}.`,
      );
    }
    const body = await this.fromEndpoints(reference, async (endpoint) => {
      const response = await this.transport.get(
        endpoint,
        reference.repository,
        `/v2/${reference.repository}/blobs/${digest}`,
        '*/*',
      );
      if (response.status === 404) {
        throw new LookupProblem(
          'not-found',
          'config-unknown',
          `${endpoint.label} has no config blob ${digest} for ${reference.canonical}.`,
        );
      }
      if (response.status !== 200) {
        throw new LookupProblem(
          'unreachable',
          'http-status',
          `${endpoint.label} answered HTTP ${response.status} for config ${digest}.`,
        );
      }
      verify(digest, response.body, `${endpoint.label} sent the config of ${reference.canonical}`);
      return response.body;
    });
    await this.cache.putContent(digest, { mediaType: 'application/vnd.oci.image.config.v1+json', body });
    return parseJson<ImageConfig>(body, `The image config ${digest}`);
  }

  /** The facts of the manifest a reference names: fetched here (entries' manifests and configs), read by facts.ts. */
  private async facts(reference: RegistryImageReference, manifest: Manifest): Promise<RegistryImageFacts> {
    const document = parseJson<ManifestDocument>(manifest.body, `The manifest of ${reference.canonical}`);
    const base = {
      reference: reference.canonical,
      registry: reference.registry,
      repository: reference.repository,
      digest: manifest.digest,
      mediaType: manifest.mediaType,
    };
    if (isIndex(manifest.mediaType)) {
      let detailed = 0;
      const platforms = indexPlatforms(reference.canonical, document).map((listed) =>
        this.platformUsers.has(listed.os) && detailed++ < MAX_ENTRY_DETAILS
          ? this.entryDetails(reference, listed.digest).then((details) => withDetails(listed, details))
          : Promise.resolve(listed),
      );
      return { ...base, platforms: await Promise.all(platforms) };
    }
    const config = await this.imageConfig(reference, document);
    const only = singlePlatform(document, config, manifest.digest);
    return { ...base, platforms: [only], user: only.user };
  }

  private imageConfig(reference: RegistryImageReference, document: ManifestDocument): Promise<ImageConfig> {
    const configDigest = str(document.config?.digest);
    if (!configDigest) {
      throw new LookupProblem('not-found', 'config-unknown', `The manifest of ${reference.canonical} names no config.`);
    }
    return this.config(reference, configDigest);
  }

  /** What one index entry's manifest and config say (both come by digest, cached forever). */
  private async entryDetails(reference: RegistryImageReference, digest: string): Promise<ImageDetails> {
    const { registry, repository } = reference;
    const entry = { ...reference, tag: undefined, digest, canonical: `${registry}/${repository}@${digest}` };
    const manifest = await this.manifest(entry);
    const document = parseJson<ManifestDocument>(manifest.body, `The manifest of ${entry.canonical}`);
    return imageDetails(document, await this.imageConfig(entry, document));
  }
}

/** Throws `invalid` unless `body` is the content `digest` names; `what` starts the message. */
function verify(digest: string, body: Buffer, what: string): void {
  const check = checkDigest(digest, body);
  if (check === 'ok') return;
  const algorithm = digestAlgorithm(digest) as 'sha256' | 'sha512';
  throw new LookupProblem(
    'invalid',
    check === 'unsupported' ? 'digest-unsupported' : 'digest-mismatch',
    check === 'unsupported'
      ? `${what} addressed by ${digest.slice(0, 80)}, which the resolver cannot verify: ${unsupportedDigestReason(digest)}.`
      : `${what} whose ${algorithm} digest is ${digestOf(body, algorithm)}, not ${digest}: the content does not match its digest (a corrupt or tampered registry or mirror). It was not used or cached.`,
  );
}

/** The first error code of a Distribution API error body (`{ errors: [{ code }] }`). */
function errorCode(body: Buffer): unknown {
  try {
    return (JSON.parse(body.toString('utf8')) as { errors?: { code?: unknown }[] }).errors?.[0]?.code;
  } catch {
    return undefined;
  }
}

function positive(value: number, name: string): number {
  if (!(value > 0)) throw new Error(`ImageResolver option ${name} must be a positive number, not ${value}.`);
  return value;
}

/** Checks a mirror URL; never echoes one that carries credentials. */
function mirrorUrl(registry: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`The mirror for ${registry} is not a URL; give http://host[:port] or https://host[:port].`);
  }
  if (url.username || url.password) {
    throw new Error(`The mirror URL for ${registry} carries credentials; put them in the Docker config file instead.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The mirror for ${registry} must be an http or https URL, not ${url.protocol}.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v2$/, '')}`;
}
