/**
 * The images of a pod as the image rules read them, worked out once per pod: each non-HostProcess container's
 * image with its path, parsed reference and the Windows build its tag names. HostProcess containers run on the
 * host and need not match its build (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import {
  inferWindowsBuild,
  parseImageReference,
  readWindowsName,
  repositoryWindowsBuild,
  type ImageBuild,
  type ImageReference,
  type RepositoryBuild,
} from '../images';
import type { WindowsRelease } from '../releases';
import type { PodFacts } from './pod';
import { join } from './util';

export interface PodImage {
  /** `spec.containers[0].image`. */
  readonly path: string;
  readonly image: string;
  readonly ref: ImageReference;
  readonly built: ImageBuild;
  /**
   * The build the repository name names when the tag names none (`fabrikam/sql-windows-1809:v2`): weaker evidence
   * than a tag (a repository may outlive the build it was named for), which the rules that read it report at a lower
   * severity, saying where it came from.
   */
  readonly named?: NamedBuild;
}

/** A build read from an image's repository name, with the sentence that says so. */
export interface NamedBuild extends RepositoryBuild {
  /** `the image repository name 'fabrikam/sql-windows-1809' names Windows ('windows-1809': Windows Server 2019)`. */
  readonly evidence: string;
}

export interface ReleaseImage extends PodImage {
  readonly built: Extract<ImageBuild, { kind: 'release' }>;
  readonly release: WindowsRelease;
}

const IMAGES = new WeakMap<PodFacts, readonly PodImage[]>();

/** The pod's non-HostProcess images that are valid references, in container order. */
export function podImages(p: PodFacts): readonly PodImage[] {
  const cached = IMAGES.get(p);
  if (cached) return cached;
  const out: PodImage[] = [];
  for (const c of p.containers) {
    if (c.hostProcess || typeof c.c.image !== 'string') continue;
    const ref = parseImageReference(c.c.image);
    if (!ref) continue;
    const built = inferWindowsBuild(ref.tag);
    const named = built.kind === 'unknown' ? repositoryWindowsBuild(ref) : undefined;
    // The sentence is readWindowsName's, which a Linux word in the name cancels: the build is still the name's.
    const evidence =
      named && (readWindowsName(ref)?.evidence ?? `the image repository name '${ref.repository}' names ${named.words}`);
    out.push({
      path: join(c.path, 'image'),
      image: c.c.image,
      ref,
      built,
      ...(named && evidence ? { named: { ...named, evidence } } : {}),
    });
  }
  IMAGES.set(p, out);
  return out;
}

/** An image whose tag names no build and whose repository name names a supported release. */
export interface NamedReleaseImage extends PodImage {
  readonly named: NamedBuild & { readonly build: Extract<ImageBuild, { kind: 'release' }> };
  readonly release: WindowsRelease;
}

/** The images whose tag names no build but whose repository name names a supported release (`sql-windows-1809`). */
export function namedReleaseImages(p: PodFacts): NamedReleaseImage[] {
  const out: NamedReleaseImage[] = [];
  for (const i of podImages(p)) {
    const named = i.named;
    if (named?.build.kind === 'release')
      out.push({ ...i, named: { ...named, build: named.build }, release: named.build.release });
  }
  return out;
}

/** The images whose tag names a supported release. */
export function releaseImages(p: PodFacts): ReleaseImage[] {
  const out: ReleaseImage[] = [];
  for (const i of podImages(p))
    if (i.built.kind === 'release') out.push({ ...i, built: i.built, release: i.built.release });
  return out;
}
