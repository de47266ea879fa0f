/**
 * image-hostprocess-only: an image built on the HostProcess base image runs only as a HostProcess container; Microsoft
 * says the base "cannot be used with any other type of Windows container"
 * (https://github.com/microsoft/windows-host-process-containers-base-image). Run as an ordinary container, it fails
 * to start on every node. Without resolution the rule knows the base image and windows_exporter by name; with
 * `--resolve-images` it knows any image the registry shows with no Windows base (hostProcessBaseFacts).
 */
import { hostProcessOnlyImage } from '../images';
import { hostProcessBaseFacts, type ImageLookups } from '../model/image-facts';
import { podImages } from '../model/pod-images';
import { HOST_PROCESS } from './docs';
import { defineRule } from './rule';

/** Why the registry's answer shows a HostProcess-only image; undefined when it does not. */
function byFacts(image: string, lookups: ImageLookups | undefined): string | undefined {
  const lookup = lookups !== undefined && Object.hasOwn(lookups, image) ? lookups[image] : undefined;
  if (lookup?.status !== 'found' || !hostProcessBaseFacts(lookup.facts)) return undefined;
  return 'an image with no Windows base layers (the registry shows no os.version and only a few MB of layers, as for images built on the HostProcess base image)';
}

export default defineRule({
  meta: {
    id: 'image-hostprocess-only',
    family: 'images',
    defaultSeverity: 'error',
    summary:
      'A HostProcess-only image (the HostProcess base image, windows_exporter 0.30 and later, or with --resolve-images any image with no Windows base layers) in an ordinary container.',
    rationale:
      'Images built on the HostProcess base image have no Windows base layers: they run only as HostProcess containers, on the host.',
    docs: HOST_PROCESS,
    severityReason: 'The container cannot start as an ordinary (process-isolated) Windows container.',
  },
  messages: {
    'hostprocess-only': { description: 'A HostProcess-only image in an ordinary container.' },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      // podImages holds the non-HostProcess containers only.
      for (const { path, image, ref } of podImages(p)) {
        const what = hostProcessOnlyImage(ref) ?? byFacts(image, options.images);
        if (what === undefined) continue;
        report(
          path,
          `${path} '${image}' is ${what}: it runs only as a HostProcess container, and this container is not one.`,
          'Run it as a HostProcess container: securityContext.windowsOptions.hostProcess: true with hostNetwork: true (in k8s-windows, WindowsHostProcessDaemonSet).',
          undefined,
          'hostprocess-only',
        );
      }
    },
  },
});
