/**
 * Image facts as a registry gives them (the OCI Distribution API: an image index's `platform` entries, an image
 * config's `os`, `os.version` and `User`; https://github.com/opencontainers/image-spec/blob/main/image-index.md,
 * https://github.com/opencontainers/image-spec/blob/main/config.md), given to the engine by reference as written.
 * Rules that read them report nothing for an image without facts: resolution is opt-in.
 */
import { isWorkloadKind, locatePodSpec } from '../workloads';
import type { PodFacts } from './pod';
import { isRecord, join } from './util';

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

/** What the registry says about one image reference. */
export interface ImageFacts {
  /** Every platform of an index or manifest list; one entry for a single-platform image. */
  readonly platforms: readonly ImagePlatform[];
  /** The image config's `User`, for a single-platform image: `ContainerAdministrator`, `ContainerUser`, '' (none). */
  readonly user?: string;
}

/** The result of looking one image reference up. */
export type ImageLookup =
  | { readonly status: 'found'; readonly facts: ImageFacts }
  | {
      /** `invalid`: the registry's answer failed verification (a digest mismatch, an unverifiable digest, too big). */
      readonly status: 'not-found' | 'unauthorized' | 'unreachable' | 'invalid';
      /** What happened, for the finding: never a credential. */
      readonly message: string;
    };

/** Image lookups by reference as written in the manifests (`mcr.microsoft.com/windows/servercore:ltsc2022`). */
export type ImageLookups = Readonly<Record<string, ImageLookup>>;

/** One container of a pod with what the registry said about its image. */
export interface ResolvedContainerImage {
  readonly path: string;
  readonly image: string;
  readonly hostProcess: boolean;
  readonly lookup: ImageLookup;
}

/** The containers of a pod whose image was looked up, in container order. */
export function resolvedImages(p: PodFacts, lookups: ImageLookups | undefined): ResolvedContainerImage[] {
  if (lookups === undefined) return [];
  const out: ResolvedContainerImage[] = [];
  for (const c of p.containers) {
    const image = c.c.image;
    if (typeof image !== 'string' || !Object.hasOwn(lookups, image)) continue;
    out.push({ path: join(c.path, 'image'), image, hostProcess: c.hostProcess, lookup: lookups[image] });
  }
  return out;
}

/** `10.0.20348` of `10.0.20348.2655`: the build a node label and a release name. */
export function buildOf(osVersion: string | undefined): string | undefined {
  const m = /^(\d+\.\d+\.\d+)/.exec(osVersion ?? '');
  return m ? m[1] : undefined;
}

/** The Windows builds an image has entries for (`10.0.17763`, `10.0.20348`), in order. */
export function windowsBuilds(facts: ImageFacts): string[] {
  const out: string[] = [];
  for (const p of facts.platforms) {
    const b = p.os === 'windows' ? buildOf(p.osVersion) : undefined;
    if (b !== undefined && !out.includes(b)) out.push(b);
  }
  return out;
}

/** Every image reference the pods of `objects` name (containers, init and ephemeral containers), once each. */
export function imageReferencesOf(objects: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const obj of objects) {
    if (!isRecord(obj) || !isWorkloadKind(obj.kind)) continue;
    const spec = locatePodSpec(obj)?.spec as Record<string, unknown> | undefined;
    for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
      const containers = spec?.[list];
      if (!Array.isArray(containers)) continue;
      for (const c of containers) if (isRecord(c) && typeof c.image === 'string' && c.image !== '') out.add(c.image);
    }
  }
  return [...out];
}

/** Whether a lookup found an image published for Windows only: evidence that its pod is a Windows pod. */
export function windowsOnly(lookup: ImageLookup | undefined): boolean {
  return (
    lookup?.status === 'found' &&
    lookup.facts.platforms.length > 0 &&
    lookup.facts.platforms.every((p) => p.os === 'windows')
  );
}

/**
 * The user a Windows pod's container runs as by its image: a single image's config `User`, else the one every
 * Windows entry of an index agrees on (entries read with `platformUsers`); undefined when not known.
 */
export function windowsImageUser(facts: ImageFacts): string | undefined {
  const windows = facts.platforms.filter((p) => p.os === 'windows');
  // A Linux-only image in a Windows pod is image-os-missing's: its user says nothing about Windows.
  if (windows.length === 0) return undefined;
  if (facts.user !== undefined) return facts.user;
  const users = new Set(windows.map((p) => p.user));
  if (users.size !== 1) return undefined;
  const [only] = users;
  return only;
}

/**
 * Under this many bytes of layers a Windows image cannot hold Windows base layers: the smallest base image,
 * Nano Server, is over 100 MB compressed, "a few hundred MB" on disk, while the HostProcess base image is "a few KB"
 * (https://github.com/microsoft/windows-host-process-containers-base-image#benefits).
 */
export const HOST_PROCESS_IMAGE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Whether the registry shows an image built on the HostProcess base image (or on no Windows base at all): every
 * Windows entry carries no `os.version` (Windows base images set it and images built on them inherit it; the
 * HostProcess base sets none, and Microsoft asks for no platform information on images built from it) and its
 * layers are read and too small to hold a Windows base. Such an image runs only as a HostProcess container.
 */
export function hostProcessBaseFacts(facts: ImageFacts): boolean {
  const windows = facts.platforms.filter((p) => p.os === 'windows');
  return (
    windows.length > 0 &&
    windows.every(
      (p) => p.osVersion === undefined && p.layersSize !== undefined && p.layersSize < HOST_PROCESS_IMAGE_MAX_BYTES,
    )
  );
}
