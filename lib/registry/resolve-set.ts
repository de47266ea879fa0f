/**
 * Image resolution for a set of manifests (`--resolve-images`, the plugin's and the policy pack's `resolveImages`):
 * every image the pods name, asked of its registry once (bounded concurrency, the disk cache, the Docker config's
 * credentials, mirrors, one deadline for all), before the engine runs; its image rules then read the answers
 * (`ValidateOptions.images`). A placeholder (`<Your Image Name>`, `${IMAGE}`, `ko://…`) is not looked up, so no
 * rule reports it.
 */
import { imageReferencesOf, type ImageLookups } from '../core/model/image-facts';
import type { EngineSettings } from '../core/validate/settings';
import { isPlaceholderReference } from './reference';
import { ImageResolver } from './resolver';
import { registryEnvironment, withTrusted } from './trust';

/** How to ask the registries: the config file's keys of the same names. */
export interface ImageResolutionSettings {
  /** Answer from the cache only. @default false */
  readonly offline?: boolean;
  /** `HOST` → mirror URL (`docker.io` for Docker Hub). @default - no mirrors */
  readonly registryMirrors?: Readonly<Record<string, string>>;
  /** The cache directory. @default - the platform's cache directory (`~/.cache/k8s-windows` on Linux) */
  readonly imageCache?: string;
  /** Registries spoken to over plain HTTP (anonymously, unless the environment trusts them). @default [] */
  readonly insecureRegistries?: readonly string[];
  /** Ask the registry when its mirror fails. @default true */
  readonly mirrorFallback?: boolean;
  /** Seconds all lookups may take together. @default 30 */
  readonly resolveTimeout?: number;
}

export interface ResolveSetOptions {
  /**
   * Told, once each, what degrades the run without failing a lookup (an unwritable cache, a malformed Docker config).
   * @default - nothing is told
   */
  readonly onWarning?: (message: string) => void;
  /** How users set the deadline, for messages. @default '--resolve-timeout, or resolveTimeout in the config file' */
  readonly deadlineSetting?: string;
}

/** What the registries say about the images of `objects`; undefined when resolution is off. */
export async function resolveImageLookups(
  objects: readonly unknown[],
  settings: EngineSettings,
  options: ResolveSetOptions = {},
): Promise<ImageLookups | undefined> {
  if (settings.resolveImages !== true) return undefined;
  return resolveImageReferences(imageReferencesOf(objects, settings.podTemplates), settings, options);
}

/** What the registries say about each of `images` (references as written), by reference; placeholders left out. */
export async function resolveImageReferences(
  images: readonly string[],
  settings: ImageResolutionSettings & Pick<EngineSettings, 'trustedRegistries'>,
  options: ResolveSetOptions = {},
): Promise<ImageLookups> {
  let trusted = settings.trustedRegistries;
  if (trusted === undefined) {
    // Not from the CLI (which reads them itself): the plugin, the policy pack, the constructs' child process.
    const env = registryEnvironment(process.env);
    for (const issue of env.issues) options.onWarning?.(`${issue.path}: ${issue.message} It is left out.`);
    trusted = env.trusted;
  }
  const split = withTrusted(trusted, settings.registryMirrors, settings.insecureRegistries);
  const resolver = new ImageResolver({
    offline: settings.offline === true,
    // The user of each Windows entry: what the kubelet judges runAsNonRoot by (windows-run-as-non-root-image-user).
    platformUsers: ['windows'],
    ...split,
    ...(settings.mirrorFallback !== undefined ? { mirrorFallback: settings.mirrorFallback } : {}),
    ...(settings.resolveTimeout !== undefined ? { deadlineMs: settings.resolveTimeout * 1000 } : {}),
    deadlineSetting: options.deadlineSetting ?? '--resolve-timeout, or resolveTimeout in the config file',
    ...(settings.imageCache !== undefined ? { cacheDir: settings.imageCache } : {}),
    ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
  });
  const wanted = [...new Set(images)].filter((image) => !isPlaceholderReference(image));
  const answers = await Promise.all(wanted.map((image) => resolver.resolve(image)));
  const out: Record<string, (typeof answers)[number]> = {};
  wanted.forEach((image, i) => (out[image] = answers[i]));
  return out;
}
