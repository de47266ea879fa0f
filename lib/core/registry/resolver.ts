/**
 * The image resolver: for each image reference, the platforms the registry lists (an OCI image index or Docker
 * manifest list gives each entry's `platform`; a single image manifest's config blob gives `os`, `os.version`,
 * `architecture` and `config.User`), read through the OCI Distribution API
 * (https://github.com/opencontainers/distribution-spec/blob/main/spec.md), with auth, mirrors and a disk cache.
 *
 * `resolve` never throws and never hangs: a missing image, a refused credential or a registry that is down is
 * one ImageLookup result with a message that says which.
 */
import { RegistryCache, defaultCacheDir, sha256Digest } from './cache';
import { DockerCredentials } from './credentials';
import {
  LookupProblem,
  MANIFEST_ACCEPT,
  MEDIA_TYPES,
  type ImageFacts,
  type ImageLookup,
  type ImagePlatform,
} from './lookup';
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
   * Credentials for a mirror are those the Docker config has for the mirror's host.
   * @default {}
   */
  readonly mirrors?: Readonly<Record<string, string>>;
  /**
   * When a mirror fails (down, refuses, lacks the image), ask the registry itself, as containerd and Docker do;
   * false makes the mirror's answer final, for air-gapped networks where the registry cannot be reached.
   * @default true
   */
  readonly mirrorFallback?: boolean;
  /**
   * Registries spoken to over plain HTTP, as Docker's `insecure-registries`. Loopback hosts always are.
   * @default []
   */
  readonly insecureRegistries?: readonly string[];
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

interface Manifest {
  readonly digest: string;
  readonly mediaType: string;
  readonly body: Buffer;
}

interface Descriptor {
  readonly mediaType?: string;
  readonly digest?: string;
  readonly platform?: { os?: string; architecture?: string; variant?: string; 'os.version'?: string };
}

interface ManifestDocument {
  readonly mediaType?: string;
  readonly manifests?: Descriptor[];
  readonly config?: Descriptor;
  readonly layers?: { readonly size?: unknown }[];
  readonly schemaVersion?: number;
}

interface ImageConfig {
  readonly os?: unknown;
  readonly architecture?: unknown;
  readonly variant?: unknown;
  readonly 'os.version'?: unknown;
  readonly config?: { User?: unknown } | null;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function parseJson<T>(body: Buffer, what: string): T {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    if (value !== null && typeof value === 'object') return value as T;
  } catch {
    // Reported below.
  }
  throw new LookupProblem('not-found', `${what} is not a JSON object.`);
}

export class ImageResolver {
  readonly cacheDir: string;
  readonly tagTtlMs: number;
  readonly offline: boolean;
  private readonly cache: RegistryCache;
  private readonly transport: RegistryTransport;
  private readonly mirrors: ReadonlyMap<string, string>;
  private readonly insecure: ReadonlySet<string>;
  private readonly mirrorFallback: boolean;
  private readonly platformUsers: ReadonlySet<string>;
  private readonly inFlight = new Map<string, Promise<ImageLookup>>();

  constructor(options: ImageResolverOptions = {}) {
    this.cacheDir = options.cacheDir ?? defaultCacheDir();
    this.tagTtlMs = options.tagTtlMs ?? DEFAULT_TAG_TTL_MS;
    this.offline = options.offline ?? false;
    this.cache = new RegistryCache(this.cacheDir);
    this.mirrors = new Map(
      Object.entries(options.mirrors ?? {}).map(([registry, url]) => [registry, mirrorUrl(registry, url)]),
    );
    this.insecure = new Set(options.insecureRegistries ?? []);
    this.mirrorFallback = options.mirrorFallback ?? true;
    this.platformUsers = new Set(options.platformUsers ?? []);
    this.transport = new RegistryTransport({
      credentials: new DockerCredentials(options.dockerConfigDir, options.credentialHelperTimeoutMs),
      concurrency: positive(options.concurrency ?? DEFAULT_CONCURRENCY, 'concurrency'),
      timeoutMs: positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs'),
      retries: Math.max(0, Math.floor(options.retries ?? DEFAULT_RETRIES)),
      retryDelayMs: Math.max(0, options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS),
    });
  }

  /** Looks one reference up. Never throws: every failure is a result with a message. */
  resolve(reference: string | RegistryImageReference): Promise<ImageLookup> {
    let parsed: RegistryImageReference;
    try {
      parsed = typeof reference === 'string' ? parseReference(reference) : reference;
    } catch (error) {
      return Promise.resolve({ status: 'not-found', message: (error as Error).message });
    }
    let lookup = this.inFlight.get(parsed.canonical);
    if (!lookup) {
      lookup = this.lookup(parsed).finally(() => this.inFlight.delete(parsed.canonical));
      this.inFlight.set(parsed.canonical, lookup);
    }
    return lookup;
  }

  private async lookup(reference: RegistryImageReference): Promise<ImageLookup> {
    try {
      const manifest = await this.manifest(reference);
      return { status: 'found', facts: await this.facts(reference, manifest) };
    } catch (error) {
      if (error instanceof LookupProblem) return { status: error.status, message: error.message };
      return {
        status: 'unreachable',
        message: `Looking up ${reference.canonical} failed: ${(error as Error).message}`,
      };
    }
  }

  /** The endpoints to try for a registry: its mirror first, when it has one, then the registry itself. */
  private endpoints(reference: RegistryImageReference): Endpoint[] {
    const endpoints: Endpoint[] = [];
    for (const alias of registryAliases(reference.registry)) {
      const mirror = this.mirrors.get(alias);
      if (mirror) {
        endpoints.push({
          url: mirror,
          credentialKey: new URL(mirror).host,
          label: `Mirror ${mirror} of ${reference.registry}`,
        });
        if (!this.mirrorFallback) return endpoints;
        break;
      }
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
    const tagEntry = digest ? undefined : await this.cache.getTag(registry, repository, tag!);
    const fresh = tagEntry && (this.offline || Date.now() - tagEntry.storedAt < this.tagTtlMs);
    const cachedDigest = digest ?? (fresh ? tagEntry.digest : undefined);
    if (cachedDigest) {
      const cached = await this.cache.getContent(cachedDigest);
      if (cached) return { digest: cachedDigest, ...cached };
    }
    if (this.offline) {
      throw new LookupProblem(
        'unreachable',
        `Offline, and the cache in ${this.cacheDir} has no answer for ${reference.canonical}.`,
      );
    }
    if (tagEntry && !fresh) {
      // An expired tag: a HEAD tells whether it still names the cached digest, and Docker Hub does not count a
      // HEAD against its pull rate limit as it counts a GET.
      const still = await this.fromEndpoints(reference, (endpoint) => this.headDigest(endpoint, reference));
      const cached = still === tagEntry.digest ? await this.cache.getContent(still) : undefined;
      if (cached) {
        await this.cache.putTag(registry, repository, tag!, tagEntry.digest);
        return { digest: tagEntry.digest, ...cached };
      }
    }
    const manifest = await this.fromEndpoints(reference, (endpoint) => this.fetchManifest(endpoint, reference));
    await this.cache.putContent(manifest.digest, manifest);
    if (!digest) await this.cache.putTag(registry, repository, tag!, manifest.digest);
    return manifest;
  }

  /** Tries each endpoint in turn; the last one's failure is the answer, naming what the mirror said. */
  private async fromEndpoints<T>(
    reference: RegistryImageReference,
    get: (endpoint: Endpoint) => Promise<T>,
  ): Promise<T> {
    const endpoints = this.endpoints(reference);
    const earlier: string[] = [];
    for (const [index, endpoint] of endpoints.entries()) {
      try {
        return await get(endpoint);
      } catch (error) {
        if (!(error instanceof LookupProblem) || index === endpoints.length - 1) {
          if (error instanceof LookupProblem && earlier.length > 0) {
            throw new LookupProblem(error.status, `${error.message} (${earlier.join(' ')})`);
          }
          throw error;
        }
        earlier.push(error.message);
      }
    }
    throw new LookupProblem('unreachable', `No endpoint for ${reference.registry}.`);
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
      throw new LookupProblem('not-found', await this.notFoundMessage(endpoint, reference, response.body));
    }
    if (response.status !== 200) {
      throw new LookupProblem(
        'unreachable',
        `${endpoint.label} answered HTTP ${response.status} for ${reference.canonical}.`,
      );
    }
    const digest = sha256Digest(response.body);
    if (reference.digest && reference.digest.startsWith('sha256:') && digest !== reference.digest) {
      throw new LookupProblem(
        'unreachable',
        `${endpoint.label} sent a manifest for ${reference.canonical} whose digest is ${digest}.`,
      );
    }
    const document = parseJson<ManifestDocument>(response.body, `The manifest of ${reference.canonical}`);
    const header = response.headers.get('content-type')?.split(';')[0]?.trim();
    const mediaType = knownMediaType(header) ?? knownMediaType(document.mediaType) ?? inferMediaType(document);
    if (!mediaType) {
      throw new LookupProblem(
        'not-found',
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
  private async notFoundMessage(endpoint: Endpoint, reference: RegistryImageReference, body: Buffer): Promise<string> {
    const noRepository = `${endpoint.label} has no repository ${reference.repository}.`;
    if (errorCode(body) === 'NAME_UNKNOWN') return noRepository;
    const what = reference.digest ? `digest ${reference.digest}` : `tag ${reference.tag}`;
    const missing = `${endpoint.label} has no ${what} in ${reference.repository}`;
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
        return `${missing}; its tags include ${shown.join(', ')}${tags.length > TAGS_SHOWN ? ', …' : ''}.`;
      }
    } catch {
      // The tag list is a courtesy: without it, say what the manifest request said.
    }
    return `${missing}.`;
  }

  private async config(reference: RegistryImageReference, digest: string): Promise<ImageConfig> {
    const cached = await this.cache.getContent(digest);
    if (cached) return parseJson<ImageConfig>(cached.body, `The image config ${digest}`);
    if (this.offline) {
      throw new LookupProblem(
        'unreachable',
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
          `${endpoint.label} has no config blob ${digest} for ${reference.canonical}.`,
        );
      }
      if (response.status !== 200) {
        throw new LookupProblem(
          'unreachable',
          `${endpoint.label} answered HTTP ${response.status} for config ${digest}.`,
        );
      }
      if (digest.startsWith('sha256:') && sha256Digest(response.body) !== digest) {
        throw new LookupProblem('unreachable', `${endpoint.label} sent a config for ${digest} with another digest.`);
      }
      return response.body;
    });
    await this.cache.putContent(digest, { mediaType: 'application/vnd.oci.image.config.v1+json', body });
    return parseJson<ImageConfig>(body, `The image config ${digest}`);
  }

  private async facts(reference: RegistryImageReference, manifest: Manifest): Promise<ImageFacts> {
    const document = parseJson<ManifestDocument>(manifest.body, `The manifest of ${reference.canonical}`);
    const base = {
      reference: reference.canonical,
      registry: reference.registry,
      repository: reference.repository,
      digest: manifest.digest,
      mediaType: manifest.mediaType,
    };
    if (manifest.mediaType === MEDIA_TYPES.ociIndex || manifest.mediaType === MEDIA_TYPES.dockerList) {
      const platforms: Promise<ImagePlatform>[] = [];
      for (const entry of document.manifests ?? []) {
        const os = str(entry.platform?.os);
        const architecture = str(entry.platform?.architecture);
        const digest = str(entry.digest);
        if (!os || !architecture || !digest || os === 'unknown') continue;
        const listed = platform(os, architecture, entry.platform?.variant, entry.platform?.['os.version'], digest);
        platforms.push(
          this.platformUsers.has(os)
            ? this.entryDetails(reference, digest).then((details) => ({
                ...listed,
                // An entry's config may carry the os.version its index entry left out.
                ...(listed.osVersion === undefined && details.osVersion ? { osVersion: details.osVersion } : {}),
                user: details.user,
                ...(details.layersSize !== undefined ? { layersSize: details.layersSize } : {}),
              }))
            : Promise.resolve(listed),
        );
      }
      return { ...base, platforms: await Promise.all(platforms) };
    }
    const config = await this.imageConfig(reference, document);
    const os = str(config.os) ?? 'unknown';
    const architecture = str(config.architecture) ?? 'unknown';
    const user = configUser(config);
    const layersSize = sumLayers(document);
    const listed = platform(os, architecture, config.variant, config['os.version'], manifest.digest);
    return {
      ...base,
      platforms: [{ ...listed, user, ...(layersSize !== undefined ? { layersSize } : {}) }],
      user,
    };
  }

  private imageConfig(reference: RegistryImageReference, document: ManifestDocument): Promise<ImageConfig> {
    const configDigest = str(document.config?.digest);
    if (!configDigest) throw new LookupProblem('not-found', `The manifest of ${reference.canonical} names no config.`);
    return this.config(reference, configDigest);
  }

  /**
   * What one index entry's manifest and config say (both come by digest, cached forever): its config's user and
   * os.version, and the size of its layers.
   */
  private async entryDetails(
    reference: RegistryImageReference,
    digest: string,
  ): Promise<{ user: string; osVersion?: string; layersSize?: number }> {
    const { registry, repository } = reference;
    const entry = { ...reference, tag: undefined, digest, canonical: `${registry}/${repository}@${digest}` };
    const manifest = await this.manifest(entry);
    const document = parseJson<ManifestDocument>(manifest.body, `The manifest of ${entry.canonical}`);
    const config = await this.imageConfig(entry, document);
    const osVersion = str(config['os.version']);
    const layersSize = sumLayers(document);
    return {
      user: configUser(config),
      ...(osVersion ? { osVersion } : {}),
      ...(layersSize !== undefined ? { layersSize } : {}),
    };
  }
}

/** The bytes an image manifest's layers add up to, as its descriptors say; undefined when one gives no size. */
function sumLayers(document: ManifestDocument): number | undefined {
  let total = 0;
  for (const layer of document.layers ?? []) {
    if (typeof layer.size !== 'number' || !Number.isFinite(layer.size) || layer.size < 0) return undefined;
    total += layer.size;
  }
  return total;
}

/** `config.User` verbatim; `''` when the image sets none. */
function configUser(config: ImageConfig): string {
  return typeof config.config?.User === 'string' ? config.config.User : '';
}

function platform(
  os: string,
  architecture: string,
  variant: unknown,
  osVersion: unknown,
  digest: string,
): ImagePlatform {
  const v = str(variant);
  const version = str(osVersion);
  return { os, architecture, ...(v ? { variant: v } : {}), ...(version ? { osVersion: version } : {}), digest };
}

function knownMediaType(type: string | undefined): string | undefined {
  return type && (Object.values(MEDIA_TYPES) as string[]).includes(type) ? type : undefined;
}

/** OCI allows a manifest without `mediaType`: an index has `manifests`, an image manifest `config`. */
function inferMediaType(document: ManifestDocument): string | undefined {
  if (document.schemaVersion !== 2) return undefined;
  if (Array.isArray(document.manifests)) return MEDIA_TYPES.ociIndex;
  if (document.config) return MEDIA_TYPES.ociManifest;
  return undefined;
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
