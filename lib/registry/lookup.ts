/**
 * What a registry says about one image reference: the platforms it was built for (os, architecture, Windows
 * build) and, for a single-platform image, the user its config runs as. A lookup that fails is a result, not a
 * throw: the reference does not exist, the registry refused the credentials, or it could not be reached.
 */
import type { ImageFacts, ImageLookup, ImageLookupCause, ImagePlatform } from '../core/model/image-lookup';

/** One platform of a registry's answer: the core's ImagePlatform with the digest of its image manifest. */
export interface RegistryImagePlatform extends ImagePlatform {
  /** The digest of this platform's image manifest. */
  readonly digest: string;
}

/**
 * The core's ImageFacts as a registry gives them, with where they were read: for a single-platform image `user` is
 * its config's; for an index, each platform's `user` and `layersSize` are present for the entries whose os the
 * resolver's `platformUsers` option names.
 */
export interface RegistryImageFacts extends ImageFacts {
  /** The normalised reference looked up: `docker.io/library/nginx:latest`. */
  readonly reference: string;
  /** `docker.io`, `mcr.microsoft.com`, `host:5000`. */
  readonly registry: string;
  /** `library/nginx`. */
  readonly repository: string;
  /** The digest of the manifest the reference names (the index for a multi-platform image). */
  readonly digest: string;
  /** That manifest's media type (OCI image index, Docker manifest list, OCI or Docker image manifest). */
  readonly mediaType: string;
  /** The platforms, in the registry's order. An index's attestation entries (`unknown/unknown`) are left out. */
  readonly platforms: readonly RegistryImagePlatform[];
}

/** A lookup's result: found with the registry's facts, or a failure with its status, cause and message. */
export type RegistryImageLookup = ImageLookup<RegistryImageFacts>;

/** A failed lookup, thrown inside the resolver and returned to the caller as its result. */
export class LookupProblem extends Error {
  constructor(
    readonly status: Exclude<ImageLookup['status'], 'found'>,
    /** Why, as a code (ImageLookup's `cause`). */
    readonly code: ImageLookupCause,
    message: string,
  ) {
    super(message);
    this.name = 'LookupProblem';
  }
}

export const MEDIA_TYPES = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
} as const;

/** The manifest kinds the resolver reads, most specific first, for the `Accept` header. */
export const MANIFEST_ACCEPT = [
  MEDIA_TYPES.ociIndex,
  MEDIA_TYPES.dockerList,
  MEDIA_TYPES.ociManifest,
  MEDIA_TYPES.dockerManifest,
].join(', ');
