/**
 * Fact extraction: what an OCI image index or Docker manifest list, an image manifest and an image config say about
 * an image (https://github.com/opencontainers/image-spec: image-index.md, manifest.md, config.md), as the core's
 * ImageFacts. Pure over bytes already fetched and verified: the resolver (resolver.ts) fetches, this reads.
 */
import { LookupProblem, MEDIA_TYPES, type RegistryImagePlatform } from './lookup';

/**
 * The most entries an index may list. Real ones list a few dozen (an entry per OS, architecture and Windows build,
 * plus attestations); 1,024 leaves room, and bounds what a hostile index costs.
 */
export const MAX_INDEX_ENTRIES = 1024;

/**
 * The most entries of one index whose manifest and config are read for `platformUsers` (two requests each). A
 * Windows image lists one entry per build and architecture: 16 covers every real one.
 */
export const MAX_ENTRY_DETAILS = 16;

export interface Descriptor {
  readonly mediaType?: string;
  readonly digest?: string;
  readonly platform?: { os?: string; architecture?: string; variant?: string; 'os.version'?: string };
}

export interface ManifestDocument {
  readonly mediaType?: string;
  readonly manifests?: Descriptor[];
  readonly config?: Descriptor;
  readonly layers?: { readonly size?: unknown }[];
  readonly schemaVersion?: number;
}

export interface ImageConfig {
  readonly os?: unknown;
  readonly architecture?: unknown;
  readonly variant?: unknown;
  readonly 'os.version'?: unknown;
  readonly config?: { User?: unknown } | null;
}

export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

export function parseJson<T>(body: Buffer, what: string): T {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    if (value !== null && typeof value === 'object') return value as T;
  } catch {
    // Reported below.
  }
  throw new LookupProblem('invalid', 'not-json', `${what} is not a JSON object.`);
}

/** The bytes an image manifest's layers add up to, as its descriptors say; undefined when one gives no size. */
export function sumLayers(document: ManifestDocument): number | undefined {
  let total = 0;
  for (const layer of document.layers ?? []) {
    if (typeof layer.size !== 'number' || !Number.isFinite(layer.size) || layer.size < 0) return undefined;
    total += layer.size;
  }
  return total;
}

/** `config.User` verbatim; `''` when the image sets none. */
export function configUser(config: ImageConfig): string {
  return typeof config.config?.User === 'string' ? config.config.User : '';
}

export function platform(
  os: string,
  architecture: string,
  variant: unknown,
  osVersion: unknown,
  digest: string,
): RegistryImagePlatform {
  const v = str(variant);
  const version = str(osVersion);
  return { os, architecture, ...(v ? { variant: v } : {}), ...(version ? { osVersion: version } : {}), digest };
}

export function knownMediaType(type: string | undefined): string | undefined {
  return type && (Object.values(MEDIA_TYPES) as string[]).includes(type) ? type : undefined;
}

/** OCI allows a manifest without `mediaType`: an index has `manifests`, an image manifest `config`. */
export function inferMediaType(document: ManifestDocument): string | undefined {
  if (document.schemaVersion !== 2) return undefined;
  if (Array.isArray(document.manifests)) return MEDIA_TYPES.ociIndex;
  if (document.config) return MEDIA_TYPES.ociManifest;
  return undefined;
}

/** Whether a manifest's media type is an index (OCI image index, Docker manifest list). */
export function isIndex(mediaType: string): boolean {
  return mediaType === MEDIA_TYPES.ociIndex || mediaType === MEDIA_TYPES.dockerList;
}

/**
 * The platforms an index lists, in its order: entries without an os, architecture or digest, and attestations
 * (`unknown/unknown`), left out. An index over MAX_INDEX_ENTRIES is refused, not cut short, since a missing entry
 * would read as a missing platform.
 */
export function indexPlatforms(canonical: string, document: ManifestDocument): RegistryImagePlatform[] {
  const entries = Array.isArray(document.manifests) ? document.manifests : [];
  if (entries.length > MAX_INDEX_ENTRIES) {
    throw new LookupProblem(
      'invalid',
      'index-too-large',
      `The index of ${canonical} lists ${entries.length} entries, more than the ${MAX_INDEX_ENTRIES} the resolver reads: it was not read (no real image lists so many).`,
    );
  }
  const out: RegistryImagePlatform[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object') continue;
    const os = str(entry.platform?.os);
    const architecture = str(entry.platform?.architecture);
    const digest = str(entry.digest);
    if (!os || !architecture || !digest || os === 'unknown') continue;
    out.push(platform(os, architecture, entry.platform?.variant, entry.platform?.['os.version'], digest));
  }
  return out;
}

/** What an image's own manifest and config add to its index entry: the config's user and os.version, the layers' size. */
export interface ImageDetails {
  readonly user: string;
  readonly osVersion?: string;
  readonly layersSize?: number;
}

/** The details of an image manifest and its config. */
export function imageDetails(document: ManifestDocument, config: ImageConfig): ImageDetails {
  const osVersion = str(config['os.version']);
  const layersSize = sumLayers(document);
  return {
    user: configUser(config),
    ...(osVersion ? { osVersion } : {}),
    ...(layersSize !== undefined ? { layersSize } : {}),
  };
}

/** An index entry's platform with its image's details. */
export function withDetails(listed: RegistryImagePlatform, details: ImageDetails): RegistryImagePlatform {
  return {
    ...listed,
    // An entry's config may carry the os.version its index entry left out.
    ...(listed.osVersion === undefined && details.osVersion ? { osVersion: details.osVersion } : {}),
    user: details.user,
    ...(details.layersSize !== undefined ? { layersSize: details.layersSize } : {}),
  };
}

/** The one platform of a single-platform image, from its config, with its user and layers' size. */
export function singlePlatform(
  document: ManifestDocument,
  config: ImageConfig,
  digest: string,
): RegistryImagePlatform & { readonly user: string } {
  const os = str(config.os) ?? 'unknown';
  const architecture = str(config.architecture) ?? 'unknown';
  const user = configUser(config);
  const layersSize = sumLayers(document);
  const listed = platform(os, architecture, config.variant, config['os.version'], digest);
  return { ...listed, user, ...(layersSize !== undefined ? { layersSize } : {}) };
}
