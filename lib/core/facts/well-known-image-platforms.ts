/**
 * The platforms a well-known image reference is published for, read from the bundled table
 * (well-known-images.ts, generated from public records): what the image rules know without asking a registry.
 * Only what the record says for the reference is answered; any other reference is unknown.
 */
import { inferWindowsBuild, parseImageReference, type ImageReference } from '../images';
import {
  DOCKER_OFFICIAL_IMAGES,
  MICROSOFT_IMAGES,
  MICROSOFT_IMAGES_CHECKED,
  OFFICIAL_IMAGES,
  type WellKnownImageSource,
} from './well-known-images';

/** One platform of a well-known image (the OCI image index `platform` fields). */
export interface WellKnownPlatform {
  readonly os: string;
  readonly architecture: string;
  readonly variant?: string;
  /** The Windows build (`10.0.20348`), without the monthly revision the record does not give. */
  readonly osVersion?: string;
}

/** What the table knows about one image reference. */
export interface WellKnownImage {
  readonly platforms: readonly WellKnownPlatform[];
  readonly source: WellKnownImageSource;
  /** What the record says, as a finding quotes it: `the Docker Official Images library file lists 'golang:alpine' for linux/amd64`. */
  readonly statement: string;
}

/** Docker Hub's names (https://github.com/distribution/reference/blob/main/normalize.go). */
const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

/** `linux/arm64/v8`, `windows/amd64:10.0.20348` → a platform. */
function platformOf(text: string): WellKnownPlatform {
  const [spec, osVersion] = text.split(':');
  const [os, architecture, variant] = spec.split('/');
  return {
    os,
    architecture,
    ...(variant !== undefined ? { variant } : {}),
    ...(osVersion !== undefined ? { osVersion } : {}),
  };
}

const platformsOf = (list: string): WellKnownPlatform[] => list.split(' ').map(platformOf);

/** Tag → platforms of the tag-by-tag repositories, built on first use of each. */
const TAG_INDEX = new Map<string, ReadonlyMap<string, string>>();

function tagIndex(repository: string, tags: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  let index = TAG_INDEX.get(repository);
  if (index === undefined) {
    const built = new Map<string, string>();
    for (const [platforms, list] of Object.entries(tags)) for (const tag of list.split(' ')) built.set(tag, platforms);
    TAG_INDEX.set(repository, (index = built));
  }
  return index;
}

const display = (list: string): string =>
  [...new Set(list.split(' ').map((p) => p.split(':')[0]))].join(', ') +
  (list.includes(':')
    ? ` with Windows builds ${[...new Set(list.match(/:[\d.]+/g))].map((b) => b.slice(1)).join(', ')}`
    : '');

/**
 * The platforms the table records for `image` (`busybox`, `nginx:1.27`, `docker.io/library/golang:alpine`), or
 * undefined when it records nothing for it: another registry, a repository it does not hold, a tag its record does
 * not list, or a digest in a repository whose tags differ.
 */
export function wellKnownImage(image: string): WellKnownImage | undefined {
  const ref = parseImageReference(image);
  if (ref === undefined) return undefined;
  if (ref.registry === 'mcr.microsoft.com') return microsoftImage(ref);
  if (ref.registry !== undefined && !DOCKER_HUB.has(ref.registry)) return undefined;
  const repository = ref.repository.includes('/') ? ref.repository : `library/${ref.repository}`;
  const record = Object.hasOwn(OFFICIAL_IMAGES, repository) ? OFFICIAL_IMAGES[repository] : undefined;
  if (record === undefined) return undefined;
  const name = repository.slice('library/'.length);
  const source = DOCKER_OFFICIAL_IMAGES;
  if ('everyTag' in record) {
    return {
      platforms: platformsOf(record.everyTag),
      source,
      statement: `${source.title} of '${name}' has never listed a Windows image; checked ${source.checked}`,
    };
  }
  // A digest names one image whatever the tag says: the record cannot tell which.
  if (ref.digest !== undefined) return undefined;
  const tag = ref.tag ?? 'latest';
  const platforms = tagIndex(repository, record.tags).get(tag);
  if (platforms === undefined) return undefined;
  return {
    platforms: platformsOf(platforms),
    source,
    statement: `${source.title} lists '${name}:${tag}' for ${display(platforms)}; checked ${source.checked}`,
  };
}

/** The Windows platform of Microsoft's images: their tags name the build, which the tag rules read. */
const WINDOWS_AMD64: readonly WellKnownPlatform[] = [{ os: 'windows', architecture: 'amd64' }];

/**
 * One of Microsoft's Windows images, when its tag names a Windows build: a build-less tag (`iis:latest`,
 * `framework/samples:aspnetapp`) may be a list over builds or one build, which image-floating-tag asks about.
 */
function microsoftImage(ref: ImageReference): WellKnownImage | undefined {
  const where = `mcr.microsoft.com/${ref.repository}`;
  const record = Object.hasOwn(MICROSOFT_IMAGES, where) ? MICROSOFT_IMAGES[where] : undefined;
  if (record === undefined || inferWindowsBuild(ref.tag).kind === 'unknown') return undefined;
  return {
    platforms: WINDOWS_AMD64,
    source: {
      title: "Microsoft's records of its Windows images",
      url: record.url,
      materialDate: record.materialDate,
      checked: MICROSOFT_IMAGES_CHECKED,
    },
    statement: `${record.says}, published for Windows only; checked ${MICROSOFT_IMAGES_CHECKED}`,
  };
}
