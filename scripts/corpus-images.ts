/**
 * The corpus's image facts (test/fixtures/realworld/images.yaml): what the registries hold for the images the
 * corpus manifests name, recorded with the public source each fact comes from. `withCorpusRegistry` pushes them
 * into a real registry (Debian's docker-registry on loopback) and resolves every recorded reference through it, as
 * `lint --resolve-images --registry-mirror HOST=URL` would; references with no record stay unresolved (absent from
 * the lookups), so the resolved run judges exactly what we know.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ImageResolver, parseReference, type RegistryImageLookup as RegistryLookup } from '../lib/registry';
import type { ImageLookup, ImageLookups } from '../lib/core';
import { RegistryServer, type Blob } from '../test/helpers/registry-server';

export const IMAGES_FILE = join(__dirname, '..', 'test', 'fixtures', 'realworld', 'images.yaml');

export interface RecordedPlatform {
  readonly os: string;
  readonly architecture: string;
  readonly variant?: string;
  /** `10.0.17763` or the full `10.0.17763.5576`, as the source gives it. */
  readonly osVersion?: string;
}

export interface RecordedSource {
  readonly repo?: string;
  readonly path?: string;
  readonly commit?: string;
  readonly url?: string;
  readonly shows: string;
}

export interface RecordedImage {
  /** The reference exactly as the corpus manifests write it. */
  readonly image: string;
  /** Why nothing is recorded: a template placeholder, an image only a tutorial builds, no public record found. */
  readonly unrecorded?: string;
  readonly kind?: 'index' | 'manifest';
  readonly platforms?: readonly RecordedPlatform[];
  /** The Windows platforms' config `User` ('' for none); absent when the source does not show it. */
  readonly user?: string;
  /** Built FROM the HostProcess base image: no os.version, a layer of a few KB. */
  readonly hostProcessBase?: boolean;
  /** registry: a record of what the registry served; build: the build definition; docs: vendor documentation. */
  readonly evidence?: 'registry' | 'build' | 'docs';
  readonly sources?: readonly RecordedSource[];
  readonly note?: string;
}

/** The recorded images, checked: every fact a rule reads is either recorded or left out on purpose. */
export function readRecordedImages(file = IMAGES_FILE): RecordedImage[] {
  const raw = parse(readFileSync(file, 'utf8')) as { images?: RecordedImage[] } | null;
  const images = raw?.images ?? [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const i of images) {
    if (seen.has(i.image)) problems.push(`${i.image}: recorded twice`);
    seen.add(i.image);
    if (i.unrecorded !== undefined) continue;
    if (!i.sources?.length) problems.push(`${i.image}: no sources`);
    if (!i.evidence) problems.push(`${i.image}: no evidence kind`);
    const platforms = i.platforms ?? [];
    if (platforms.length === 0) problems.push(`${i.image}: no platforms`);
    if (i.kind === 'manifest' && platforms.length !== 1) problems.push(`${i.image}: a manifest has one platform`);
    for (const p of platforms) {
      // A Windows entry without a build reads as an image with no Windows base: only true of HostProcess images.
      if (p.os === 'windows' && p.osVersion === undefined && i.hostProcessBase !== true) {
        problems.push(`${i.image}: a Windows platform needs its osVersion (or hostProcessBase: true)`);
      }
      if (p.osVersion !== undefined && !/^10\.0\.\d+(\.\d+)?$/.test(p.osVersion)) {
        problems.push(`${i.image}: osVersion ${p.osVersion} is not 10.0.BUILD[.REVISION]`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`${file}:\n  ${problems.join('\n  ')}`);
  return images;
}

/** Pushes one recorded image under its repository and tag (or digest) into `server`. */
async function push(server: RegistryServer, image: RecordedImage): Promise<void> {
  const ref = parseReference(image.image);
  const platforms = image.platforms ?? [];
  // The user is written only where it was recorded; an unrecorded one is removed from the answer afterwards.
  const config = (p: RecordedPlatform) => ({
    os: p.os,
    architecture: p.architecture,
    ...(p.osVersion !== undefined ? { osVersion: p.osVersion } : {}),
    ...(p.os === 'windows' && image.user !== undefined ? { user: image.user } : {}),
  });
  if (image.kind === 'index') {
    const entries: { image: Blob; os: string; architecture: string; osVersion?: string }[] = [];
    for (const p of platforms) {
      entries.push({ image: await server.pushImage(ref.repository, config(p)), ...p });
    }
    await server.pushIndex(ref.repository, entries, { tag: ref.tag ?? 'latest' });
  } else {
    await server.pushImage(ref.repository, config(platforms[0]), { tag: ref.tag ?? 'latest' });
  }
}

/** Leaves out of an answer what the record does not know: the user, when no source showed it. */
function asRecorded(lookup: RegistryLookup, image: RecordedImage): ImageLookup {
  if (lookup.status !== 'found' || image.user !== undefined) return lookup;
  const platforms = lookup.facts.platforms.map(({ user: _user, ...p }) => p);
  const { user: _user, ...facts } = lookup.facts;
  return { status: 'found', facts: { ...facts, platforms } };
}

/**
 * Starts a registry, pushes every recorded image, resolves each recorded reference through it (one mirror per
 * registry host, no fallback: nothing leaves the machine) and runs `fn` with the answers.
 */
export async function withCorpusRegistry<T>(
  fn: (lookups: ImageLookups) => T | Promise<T>,
  images = readRecordedImages(),
): Promise<T> {
  const recorded = images.filter((i) => i.unrecorded === undefined);
  const repositories = new Map<string, string>();
  for (const i of recorded) {
    const ref = parseReference(i.image);
    const owner = repositories.get(ref.repository);
    if (owner !== undefined && owner !== ref.registry) {
      throw new Error(
        `${i.image}: repository ${ref.repository} is also recorded for ${owner}; one registry holds both`,
      );
    }
    repositories.set(ref.repository, ref.registry);
  }
  const server = await RegistryServer.start();
  const cacheDir = mkdtempSync(join(tmpdir(), 'k8s-windows-corpus-cache-'));
  try {
    for (const i of recorded) await push(server, i);
    const mirrors = Object.fromEntries([...new Set(repositories.values())].map((r) => [r, server.url]));
    const resolver = new ImageResolver({ mirrors, mirrorFallback: false, platformUsers: ['windows'], cacheDir });
    const lookups: Record<string, ImageLookup> = {};
    for (const i of recorded) lookups[i.image] = asRecorded(await resolver.resolve(i.image), i);
    return await fn(lookups);
  } finally {
    await server.dispose();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
