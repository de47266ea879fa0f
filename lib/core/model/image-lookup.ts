/**
 * What a registry (or, without one, a public record) says about an image, as the rules read it: the lookup result
 * types the registry client (lib/registry) fills in and the engine passes to the rules (`ValidateOptions.images`).
 * Types and one predicate only, so the pod model and the option types can name them without a cycle.
 */

/** One platform an image is published for. */
export interface ImagePlatform {
  readonly os: string;
  readonly architecture: string;
  /** `os.version`: the full Windows build (`10.0.20348.2655`); absent for Linux. */
  readonly osVersion?: string;
  readonly variant?: string;
  /** This platform's image config `User`, when it was read ('' when the image sets none). */
  readonly user?: string;
  /** The compressed size of this platform's layers, when its manifest was read. */
  readonly layersSize?: number;
}

/** A public record the facts were read from instead of a registry (the bundled table of well-known images). */
export interface ImageFactsRecord {
  /** What the record says, as a finding quotes it, with the date it was checked. */
  readonly statement: string;
  /** Where the record is: repository, path and commit. */
  readonly url: string;
  /** The day the record was read (YYYY-MM-DD). */
  readonly checked: string;
}

/** What the registry (or, without one, a public record) says about one image reference. */
export interface ImageFacts {
  /** Every platform of an index or manifest list; one entry for a single-platform image. */
  readonly platforms: readonly ImagePlatform[];
  /** The image config's `User`, for a single-platform image: `ContainerAdministrator`, `ContainerUser`, '' (none). */
  readonly user?: string;
  /**
   * The public record these facts come from, when no registry was asked.
   * @default - none: the registry's answer
   */
  readonly record?: ImageFactsRecord;
}

/**
 * Why a lookup failed, as a code a program can switch on (the message says it in words). Each belongs to one status:
 * - `not-found`: `reference-invalid`, `repository-unknown`, `manifest-unknown`, `config-unknown`,
 *   `manifest-unsupported`;
 * - `unauthorized`: `credentials-missing`, `credentials-refused`, `access-denied`, `token-service`;
 * - `unreachable`: `offline-miss`, `deadline`, `host-unresolved`, `certificate-untrusted`, `no-answer`, `http-status`,
 *   `redirect`, `resolver-failed`;
 * - `invalid`: `digest-mismatch`, `digest-unsupported`, `too-large`, `index-too-large`, `not-json`.
 */
export type ImageLookupCause =
  | 'reference-invalid'
  | 'repository-unknown'
  | 'manifest-unknown'
  | 'config-unknown'
  | 'manifest-unsupported'
  | 'credentials-missing'
  | 'credentials-refused'
  | 'access-denied'
  | 'token-service'
  | 'offline-miss'
  | 'deadline'
  | 'host-unresolved'
  | 'certificate-untrusted'
  | 'no-answer'
  | 'http-status'
  | 'redirect'
  | 'resolver-failed'
  | 'digest-mismatch'
  | 'digest-unsupported'
  | 'too-large'
  | 'index-too-large'
  | 'not-json';

/**
 * The result of looking one image reference up; `F` is the facts' shape (the registry client's carry the digest and
 * media type too).
 */
export type ImageLookup<F extends ImageFacts = ImageFacts> =
  | { readonly status: 'found'; readonly facts: F }
  | {
      /** `invalid`: the registry's answer failed verification (a digest mismatch, an unverifiable digest, too big). */
      readonly status: 'not-found' | 'unauthorized' | 'unreachable' | 'invalid';
      /** What happened, for the finding: never a credential. */
      readonly message: string;
      /**
       * Why, as a code.
       * @default - not said (answers recorded before causes were coded)
       */
      readonly cause?: ImageLookupCause;
    };

/** Image lookups by reference as written in the manifests (`mcr.microsoft.com/windows/servercore:ltsc2022`). */
export type ImageLookups = Readonly<Record<string, ImageLookup>>;

/**
 * Whether a lookup found an image published with no Windows entry: whatever its name says, it is not a Windows
 * image.
 */
export function publishedWithoutWindows(lookup: ImageLookup | undefined): boolean {
  return (
    lookup?.status === 'found' &&
    lookup.facts.platforms.length > 0 &&
    lookup.facts.platforms.every((p) => p.os !== 'windows')
  );
}

/** Whether a lookup found an image published for Windows only: evidence that its pod is a Windows pod. */
export function windowsOnly(lookup: ImageLookup | undefined): boolean {
  return (
    lookup?.status === 'found' &&
    lookup.facts.platforms.length > 0 &&
    lookup.facts.platforms.every((p) => p.os === 'windows')
  );
}
