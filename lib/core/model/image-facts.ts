/**
 * Image facts as a registry gives them (the OCI Distribution API: an image index's `platform` entries, an image
 * config's `os`, `os.version` and `User`; https://github.com/opencontainers/image-spec/blob/main/image-index.md,
 * https://github.com/opencontainers/image-spec/blob/main/config.md), given to the engine by reference as written.
 * Rules that read them report nothing for an image without facts: resolution is opt-in.
 */
import { wellKnownImage } from '../facts/well-known-image-platforms';
import { locatePods, type PodTemplateKind } from '../pod-templates';
import type { PodFacts } from './pod';
import type { ImageFacts, ImageLookup, ImageLookups } from './image-lookup';
import { isRecord, join } from './util';

export type {
  ImageFacts,
  ImageFactsRecord,
  ImageLookup,
  ImageLookupCause,
  ImageLookups,
  ImagePlatform,
} from './image-lookup';
export { windowsOnly } from './image-lookup';

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

/**
 * Where a finding's facts come from, for its message: the registry's platforms, or the record's own words.
 */
export function factsOrigin(facts: ImageFacts): string {
  if (facts.record !== undefined) return facts.record.statement;
  const has = [...new Set(facts.platforms.map((x) => `${x.os}/${x.architecture}`))].join(', ') || 'no platform';
  return `the registry lists ${has}`;
}

/** ` (the record's words)` when the facts come from a public record, else '': for findings that state them. */
export function recordNote(facts: ImageFacts): string {
  return facts.record === undefined ? '' : ` (${facts.record.statement})`;
}

/** Well-known answers by reference: the table is pure, and charts repeat a handful of images. */
const WELL_KNOWN = new Map<string, ImageLookup | null>();
const WELL_KNOWN_CACHE_SIZE = 1024;

function wellKnownLookup(image: string): ImageLookup | undefined {
  let lookup = WELL_KNOWN.get(image);
  if (lookup === undefined) {
    const known = wellKnownImage(image);
    lookup =
      known === undefined
        ? null
        : {
            status: 'found',
            facts: {
              platforms: known.platforms,
              record: { statement: known.statement, url: known.source.url, checked: known.source.checked },
            },
          };
    if (WELL_KNOWN.size >= WELL_KNOWN_CACHE_SIZE) WELL_KNOWN.clear();
    WELL_KNOWN.set(image, lookup);
  }
  return lookup ?? undefined;
}

/**
 * The bundled record of a well-known image as a lookup, when no registry was asked about it (`lookups` has no
 * answer for it): what toWindowsPodSpec reads where the engine's merged lookups are not at hand.
 */
export function wellKnownUnlessAsked(image: string, lookups: ImageLookups | undefined): ImageLookup | undefined {
  return lookups !== undefined && Object.hasOwn(lookups, image) ? undefined : wellKnownLookup(image);
}

/** image-os-missing's words for `image` at `path`, which has no `os` entry: the rule's and the constructs'. */
export function osMissingFinding(
  path: string,
  image: string,
  facts: ImageFacts,
  os: 'windows' | 'linux',
): { readonly message: string; readonly fix: string } {
  return {
    message: `${path} '${image}' has no ${os} image (${factsOrigin(facts)}), and this is a ${os === 'windows' ? 'Windows' : 'Linux'} pod: the pull fails with "no matching manifest for ${os}/amd64".`,
    fix:
      os === 'windows'
        ? 'Use a Windows build of the image (a nanoserver or servercore variant), or move the container to a Linux pod.'
        : 'Use a Linux image, or run the workload on Windows nodes.',
  };
}

/**
 * `lookups` with the bundled records of well-known images (facts/well-known-images.ts) for the images of `objects`
 * no registry answered for: a registry's answer, whatever it is, wins over the record. The same object when there
 * is nothing to add.
 */
export function withWellKnownImages(
  objects: readonly unknown[],
  lookups: ImageLookups | undefined,
  podTemplates: readonly PodTemplateKind[] = [],
): ImageLookups | undefined {
  let out: Record<string, ImageLookup> | undefined;
  for (const image of imageReferencesOf(objects, podTemplates)) {
    if (lookups !== undefined && Object.hasOwn(lookups, image)) continue;
    const known = wellKnownLookup(image);
    if (known === undefined) continue;
    out ??= { ...lookups };
    out[image] = known;
  }
  return out ?? lookups;
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

/**
 * Every image reference the pods of `objects` name (containers, init and ephemeral containers), once each: the pods
 * of workloads, of well-known custom resources and of the `podTemplates` kinds.
 */
export function imageReferencesOf(
  objects: readonly unknown[],
  podTemplates: readonly PodTemplateKind[] = [],
): string[] {
  const out = new Set<string>();
  for (const obj of objects) {
    for (const loc of locatePods(obj, podTemplates)) {
      const spec = loc.spec as unknown as Record<string, unknown>;
      for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
        const containers = spec[list];
        if (!Array.isArray(containers)) continue;
        for (const c of containers) if (isRecord(c) && typeof c.image === 'string' && c.image !== '') out.add(c.image);
      }
    }
  }
  return [...out];
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
