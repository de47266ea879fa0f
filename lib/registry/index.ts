/**
 * The image resolver: what a registry says about an image (its platforms, Windows builds and user), read through
 * the OCI Distribution API with the Docker config's credentials, mirrors and a disk cache. An adapter beside the
 * pure core (it does the network, the file system and credential helpers), in layers:
 * - reference.ts: references normalised as the registry sees them (the grammar is the core's image-reference.ts);
 * - auth.ts (credentials.ts, challenge.ts, trust.ts): the token and Basic handshake, and where credentials may go;
 * - transport.ts (http.ts, deadline.ts): requests with retries, bounds, redirects and the one deadline;
 * - cache.ts, digest.ts: content kept by digest and verified against it;
 * - facts.ts: what an index, a manifest and a config say, as the core's ImageFacts;
 * - resolver.ts: fetches what facts.ts reads, through the mirrors and the cache; resolve-set.ts: a set of images.
 * A failed lookup is a result with a status and a cause code (lookup.ts), never a throw.
 */
export {
  DOCKER_HUB,
  DOCKER_HUB_HOST,
  parseReference,
  registryAliases,
  isLoopback,
  isPlaceholderReference,
  type RegistryImageReference,
} from './reference';
export { MEDIA_TYPES, type RegistryImageFacts, type RegistryImageLookup, type RegistryImagePlatform } from './lookup';
export { parseChallenges, type AuthChallenge } from './challenge';
export { defaultCacheDir } from './cache';
export { defaultDockerConfigDir } from './credentials';
export { DEFAULT_DEADLINE_MS } from './deadline';
export { INSECURE_ENV, MIRRORS_ENV } from './trust';
export {
  ImageResolver,
  DEFAULT_CONCURRENCY,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_TAG_TTL_MS,
  DEFAULT_TIMEOUT_MS,
  MAX_ENTRY_DETAILS,
  MAX_INDEX_ENTRIES,
  type ImageResolverOptions,
} from './resolver';
export {
  resolveImageLookups,
  resolveImageReferences,
  type ImageResolutionSettings,
  type ResolveSetOptions,
} from './resolve-set';
