/**
 * Image resolution for a set of manifests (`--resolve-images`, the plugin's and the policy pack's `resolveImages`):
 * every image the pods name, asked of its registry once (bounded concurrency, the disk cache, the Docker config's
 * credentials, mirrors), before the engine runs; its image rules then read the answers (`ValidateOptions.images`).
 */
import { imageReferencesOf, type ImageLookups } from '../validate/image-facts';
import type { EngineSettings } from '../validate/settings';
import { ImageResolver } from './resolver';
import type { ImageResolutionSettings } from './sync';

/** What the registries say about the images of `objects`; undefined when resolution is off. */
export async function resolveImageLookups(
  objects: readonly unknown[],
  settings: EngineSettings,
): Promise<ImageLookups | undefined> {
  if (settings.resolveImages !== true) return undefined;
  return resolveImageReferences(imageReferencesOf(objects), settings);
}

/** What the registries say about each of `images` (references as written), by reference. */
export async function resolveImageReferences(
  images: readonly string[],
  settings: ImageResolutionSettings,
): Promise<ImageLookups> {
  const resolver = new ImageResolver({
    offline: settings.offline === true,
    // The user of each Windows entry: what the kubelet judges runAsNonRoot by (windows-run-as-non-root-image-user).
    platformUsers: ['windows'],
    ...(settings.registryMirrors !== undefined ? { mirrors: settings.registryMirrors } : {}),
    ...(settings.imageCache !== undefined ? { cacheDir: settings.imageCache } : {}),
  });
  const answers = await Promise.all(images.map((image) => resolver.resolve(image)));
  const out: Record<string, (typeof answers)[number]> = {};
  images.forEach((image, i) => (out[image] = answers[i]));
  return out;
}
