/**
 * image-build-mismatch: process isolation needs the image build to equal the node build; Hyper-V isolation runs an
 * image of the same or an older build (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import { checkImageCompatibility } from '../images';
import { WINDOWS_BUILD_LABEL } from '../kube';
import { releaseImages } from '../validate/pod-images';
import { VERSION_COMPAT } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'image-build-mismatch',
    family: 'images',
    defaultSeverity: 'error',
    summary: 'An image built for another Windows release than the nodes the pod is pinned to.',
    rationale:
      'Process isolation needs equal image and host builds ("the container operating system does not match the host operating system"); Hyper-V needs the image to be the same or older.',
    docs: VERSION_COMPAT,
    severityReason: 'The container cannot start on the nodes the pod is pinned to.',
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      const images = releaseImages(p);
      const pin = p.pin;
      if (pin) {
        for (const { path, image } of images) {
          const compat = checkImageCompatibility(image, pin.release, p.isolation);
          if (compat.status !== 'incompatible') continue;
          // A RuntimeClass outside the set may use the Hyper-V handler, which also runs older images: only an
          // image newer than the host fails under both isolations.
          if (!p.isolationKnown && checkImageCompatibility(image, pin.release, 'hyperv').status !== 'incompatible') {
            continue;
          }
          report(path, `${compat.reason} The pod is pinned by ${pin.via}.`, compat.fix);
        }
        return;
      }
      // Unpinned: every image must match the first one, or no node can run them all under process isolation.
      const [first, ...rest] = images;
      if (first === undefined || p.isolation !== 'process') return;
      for (const { path, image, release } of rest) {
        if (release === first.release) continue;
        report(
          path,
          `${path} '${image}' is built for Windows Server ${release} but ${first.path} '${first.image}' for Windows Server ${first.release}: with process isolation no node can run both.`,
          `Use the same ltsc tag for every container of the pod, and pin the pod with nodeSelector ${WINDOWS_BUILD_LABEL}.`,
        );
      }
    },
  },
});
