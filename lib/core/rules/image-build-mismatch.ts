/**
 * image-build-mismatch: an image the pinned nodes cannot run. Which builds a host runs is the table
 * `HOST_COMPATIBILITY` (lib/core/facts/windows.ts): process isolation runs the host's build and, on Windows
 * Server 2025, ltsc2022 too; Hyper-V isolation runs an image of the same or an older build
 * (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import { hostRunsImage, processCompatibilitySentence, WINDOWS_RELEASES } from '../facts/windows';
import { checkImageCompatibility, inferWindowsBuild, parseImageReference } from '../images';
import { isWindowsRelease, releaseInfo, type WindowsRelease } from '../releases';
import { WINDOWS_BUILD_LABEL } from '../kube';
import { releaseImages } from '../model/pod-images';
import { VERSION_COMPAT } from './docs';
import { defineRule } from './rule';

/** The release whose build an image is tagged for (`ltsc2019` → `'2019'`), if the tag says so. */
function releaseOfImage(image: unknown): WindowsRelease | undefined {
  if (typeof image !== 'string') return undefined;
  const build = inferWindowsBuild(parseImageReference(image)?.tag);
  return build.kind === 'release' ? build.release : undefined;
}

export default defineRule({
  meta: {
    id: 'image-build-mismatch',
    family: 'images',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'An image built for another Windows release than the nodes the pod is pinned to.',
    rationale: `A host runs only some image builds (${processCompatibilitySentence()}; "the container operating system does not match the host operating system" otherwise); Hyper-V needs the image to be the same or older.`,
    docs: VERSION_COMPAT,
    severityReason: 'The container cannot start on the nodes the pod is pinned to.',
  },
  messages: {
    pinned: {
      description: 'An image built for another release than the one the pod is pinned to.',
      frontDoorFixes: {
        // The components pin the release with their `windows` args.
        pulumi: ({ fix }) =>
          fix === undefined
            ? undefined
            : {
                fix: fix.replace(
                  /\b(?:pin|run) the workload (?:to|on) Windows Server (\d{4}) nodes\b/g,
                  (_m, release: string) =>
                    `run it on Windows Server ${release} nodes: windows: { release: '${release}' }, or windows.target set to a ${release} pool's nodeTarget`,
                ),
              },
        cdk8s: ({ value, release: nodes }) => {
          const release = releaseOfImage(value);
          const tag = !isWindowsRelease(nodes)
            ? "the image's tag for the workload's release"
            : `the image's ${releaseInfo(nodes).imageTags[0]} tag`;
          return {
            fix:
              release === undefined
                ? `Use ${tag}, or set \`windows: { release }\` to the release the image is built for.`
                : `Use ${tag}, or run it on Windows Server ${release} nodes: \`windows: { release: '${release}' }\`.`,
          };
        },
      },
    },
    'mixed-releases': {
      description:
        'An unpinned pod whose images are built for releases no one node runs together under process isolation.',
    },
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
          report(path, `${compat.reason} The pod is pinned by ${pin.via}.`, compat.fix, undefined, 'pinned');
        }
        return;
      }
      // Unpinned: some release's nodes must run every image, or no node can run the pod under process isolation.
      const [first, ...rest] = images;
      if (first === undefined || p.isolation !== 'process') return;
      const runsAll = (upTo: number): boolean =>
        WINDOWS_RELEASES.some((host) =>
          images.slice(0, upTo + 1).every((i) => hostRunsImage(host, i.release, 'process')),
        );
      rest.forEach(({ path, image, release }, i) => {
        if (runsAll(i + 1)) return;
        report(
          path,
          `${path} '${image}' is built for Windows Server ${release} but ${first.path} '${first.image}' for Windows Server ${first.release}: with process isolation no node can run both.`,
          `Use the same ltsc tag for every container of the pod, and pin the pod with nodeSelector ${WINDOWS_BUILD_LABEL}.`,
          undefined,
          'mixed-releases',
        );
      });
    },
  },
});
