/**
 * The images of a pod as the image rules read them, worked out once per pod: each non-HostProcess container's
 * image with its path, parsed reference and the Windows build its tag names. HostProcess containers run on the
 * host and need not match its build (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import { inferWindowsBuild, parseImageReference, type ImageBuild, type ImageReference } from '../images';
import type { WindowsRelease } from '../releases';
import type { PodFacts } from './pod';
import { join } from './util';

export interface PodImage {
  /** `spec.containers[0].image`. */
  readonly path: string;
  readonly image: string;
  readonly ref: ImageReference;
  readonly built: ImageBuild;
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
    if (ref) out.push({ path: join(c.path, 'image'), image: c.c.image, ref, built: inferWindowsBuild(ref.tag) });
  }
  IMAGES.set(p, out);
  return out;
}

/** The images whose tag names a supported release. */
export function releaseImages(p: PodFacts): ReleaseImage[] {
  const out: ReleaseImage[] = [];
  for (const i of podImages(p))
    if (i.built.kind === 'release') out.push({ ...i, built: i.built, release: i.built.release });
  return out;
}
