/**
 * The image resolver: what a registry says about an image (its platforms, Windows builds and user), read through
 * the OCI Distribution API with the Docker config's credentials, mirrors and a disk cache.
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
