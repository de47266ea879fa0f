/**
 * `--resolve-images` for `lint` and `fix`: the registries' answers about the images of a run, or undefined when it
 * is off. The resolver (its HTTP, cache and credential-helper code) loads only then, and the objects are only read
 * for their images then. What degrades the run without failing a lookup (an unwritable cache directory, a Docker
 * config that is not JSON) is told through `warn`, once each.
 */
import type { ImageLookups } from '../core/model/image-facts';
import type { EngineSettings } from '../core/validate/settings';

export async function imageLookups(
  objects: () => readonly unknown[],
  settings: EngineSettings,
  warn?: (message: string) => void,
): Promise<ImageLookups | undefined> {
  if (settings.resolveImages !== true) return undefined;
  const { resolveImageLookups } = await import('../registry');
  return resolveImageLookups(objects(), settings, {
    ...(warn !== undefined ? { onWarning: warn } : {}),
    deadlineSetting: '--resolve-timeout, or resolveTimeout in the config file',
  });
}
