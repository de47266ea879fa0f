/**
 * What a registry says about one image reference: the platforms it was built for (os, architecture, Windows
 * build) and, for a single-platform image, the user its config runs as. A lookup that fails is a result, not a
 * throw: the reference does not exist, the registry refused the credentials, or it could not be reached.
 */

/** One platform an image was built for: an index entry, or a single-platform image's config. */
export interface ImagePlatform {
  /** `windows`, `linux`. */
  readonly os: string;
  /** `amd64`, `arm64`. */
  readonly architecture: string;
  /** `v8` for arm64/v8, when the registry says. */
  readonly variant?: string;
  /** The Windows build, `10.0.17763.5576` (`os.version`), when the registry says. */
  readonly osVersion?: string;
  /** The digest of this platform's image manifest. */
  readonly digest: string;
  /**
   * The user this platform's image config runs as, verbatim (`ContainerAdministrator`, `ContainerUser`; `''` when
   * the image sets none): present when the config was read, that is for a single-platform image, and for index
   * entries whose os the resolver's `platformUsers` option names.
   */
  readonly user?: string;
  /**
   * The bytes this platform's image manifest's layers add up to (compressed, as its descriptors say): present when
   * the manifest was read, as for `user`.
   */
  readonly layersSize?: number;
}

export interface ImageFacts {
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
  /**
   * The platforms, in the registry's order. An index's attestation entries (`unknown/unknown`) are left out.
   */
  readonly platforms: readonly ImagePlatform[];
  /**
   * The user a single-platform image's config runs as, verbatim (`''` when the image sets none).
   * @default - absent for a multi-platform image (see ImagePlatform.user and the `platformUsers` option)
   */
  readonly user?: string;
}

export type ImageLookup =
  | { readonly status: 'found'; readonly facts: ImageFacts }
  /** The registry has no such repository, tag or digest (or the reference is not valid). */
  | { readonly status: 'not-found'; readonly message: string }
  /** The registry wants credentials the Docker config does not have, or refused the ones it has. */
  | { readonly status: 'unauthorized'; readonly message: string }
  /** Down, timed out, answered 5xx, past the resolution's deadline, or offline with nothing cached. */
  | { readonly status: 'unreachable'; readonly message: string }
  /**
   * The registry answered with content the resolver refuses: not the content its digest names, addressed by a
   * digest algorithm it cannot verify, over the size cap, an index with more entries than it reads, not JSON.
   */
  | { readonly status: 'invalid'; readonly message: string };

/** A failed lookup, thrown inside the resolver and returned to the caller as its result. */
export class LookupProblem extends Error {
  constructor(
    readonly status: Exclude<ImageLookup['status'], 'found'>,
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
