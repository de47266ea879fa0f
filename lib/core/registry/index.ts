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
  type RegistryImageReference,
} from './reference';
export { MEDIA_TYPES, type ImageFacts, type ImageLookup, type ImagePlatform } from './lookup';
export { parseChallenges, type AuthChallenge } from './challenge';
export { defaultCacheDir } from './cache';
export { defaultDockerConfigDir } from './credentials';
export {
  ImageResolver,
  DEFAULT_CONCURRENCY,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_TAG_TTL_MS,
  DEFAULT_TIMEOUT_MS,
  type ImageResolverOptions,
} from './resolver';
export { resolveImageLookups, resolveImageReferences } from './resolve-set';
export { resolveImageLookupsSync, type ImageResolutionSettings } from './sync';
