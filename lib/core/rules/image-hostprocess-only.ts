/**
 * image-hostprocess-only: an image built on the HostProcess base image runs only as a HostProcess container; Microsoft
 * says the base "cannot be used with any other type of Windows container"
 * (https://github.com/microsoft/windows-host-process-containers-base-image). Run as an ordinary container, it fails
 * to start on every node.
 */
import { hostProcessOnlyImage } from '../images';
import { podImages } from '../validate/pod-images';
import { HOST_PROCESS } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'image-hostprocess-only',
    family: 'images',
    defaultSeverity: 'error',
    summary: 'A HostProcess-only image (the HostProcess base image, windows_exporter) in an ordinary container.',
    rationale:
      'Images built on the HostProcess base image have no Windows base layers: they run only as HostProcess containers, on the host.',
    docs: HOST_PROCESS,
    severityReason: 'The container cannot start as an ordinary (process-isolated) Windows container.',
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      // podImages holds the non-HostProcess containers only.
      for (const { path, image, ref } of podImages(p)) {
        const what = hostProcessOnlyImage(ref);
        if (what === undefined) continue;
        report(
          path,
          `${path} '${image}' is ${what}: it runs only as a HostProcess container, and this container is not one.`,
          'Run it as a HostProcess container: securityContext.windowsOptions.hostProcess: true with hostNetwork: true (in k8s-windows, WindowsHostProcessDaemonSet).',
        );
      }
    },
  },
});
