/**
 * image-build-mismatch: an image the pinned nodes cannot run. Which builds a host runs is the table
 * `HOST_COMPATIBILITY` (lib/core/facts/windows.ts): process isolation runs the host's build and, on Windows
 * Server 2025, ltsc2022 too; Hyper-V isolation runs an image of the same or an older build
 * (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import {
  HOST_COMPATIBILITY,
  hostRunsImage,
  hostsRunningImage,
  processCompatibilitySentence,
  WINDOWS_RELEASES,
} from '../facts/windows';
import { windowsBuildTagPatterns, windowsNamePatterns } from '../images';
import { celString, celStringList } from './cel';
import { checkImageCompatibility, inferWindowsBuild, parseImageReference } from '../images';
import { isWindowsRelease, releaseInfo, type WindowsRelease } from '../releases';
import { WINDOWS_BUILD_LABEL } from '../kube';
import { namedReleaseImages, releaseImages } from '../model/pod-images';
import { VERSION_COMPAT } from './docs';
import { defineRule } from './rule';

/** The release whose build an image is tagged for (`ltsc2019` → `'2019'`), if the tag says so. */
function releaseOfImage(image: unknown): WindowsRelease | undefined {
  if (typeof image !== 'string') return undefined;
  const build = inferWindowsBuild(parseImageReference(image)?.tag);
  return build.kind === 'release' ? build.release : undefined;
}

/** HOST_COMPATIBILITY as a CEL map literal: host release → isolation → the image releases it runs. */
const HOSTS = `{${WINDOWS_RELEASES.map(
  (host) =>
    `${celString(host)}: {'process': ${celStringList(HOST_COMPATIBILITY[host].process)}, 'hyperv': ${celStringList(HOST_COMPATIBILITY[host].hyperv)}}`,
).join(', ')}}`;

/** The release a lower-cased tag `t` names (inferWindowsBuild), as CEL: '2022', 'retired' or ''. */
const tagRelease = (t: string): string =>
  `(${windowsBuildTagPatterns()
    .map(({ pattern, release }) => `${t}.matches(${celString(pattern)}) ? ${celString(release)} : `)
    .join('')}'')`;

/** The release a repository path `r` names (windowsNamePatterns), as CEL: '2022', 'retired' or ''. */
const nameRelease = (r: string): string =>
  `(${windowsNamePatterns()
    .builds.map(({ pattern, release }) => `${r}.matches(${celString(pattern)}) ? ${celString(release)} : `)
    .join('')}'')`;

/** `ltsc2022 or ltsc2025`: the image releases `host` runs under `isolation`. */
function runsOnHost(host: WindowsRelease, isolation: 'process' | 'hyperv'): string {
  return WINDOWS_RELEASES.filter((r) => hostRunsImage(host, r, isolation))
    .map((r) => `ltsc${r}`)
    .join(' or ');
}

/** Whether the pinned hosts run image `i` (process, or Hyper-V too when an unseen RuntimeClass may use it). */
const PIN_RUNS = (i: string): string =>
  `(${i}[2] in ${HOSTS}[variables.pinRelease]['process'] || (has(variables.spec.runtimeClassName) && ${i}[2] in ${HOSTS}[variables.pinRelease]['hyperv']))`;

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
    cases: [
      {
        name: 'repository-name',
        severity: 'warning',
        when: "The image's tag names no build and its repository name does (fabrikam/sql-windows-1809:v2): a repository may outlive the build it was named for, so the name is weaker evidence than a tag.",
      },
    ],
  },
  messages: {
    pinned: {
      description: 'An image built for another release than the one the pod is pinned to.',
      message: '{reason} The pod is pinned by {via}.',
      fix: '{fix}',
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
    'pinned-by-name': {
      description: 'An image whose repository name names another release than the one the pod is pinned to.',
      message:
        "{path} '{image}' looks built for Windows Server {release} ({build}): {evidence}. The pod is pinned by {via} to {displayName} ({build2}) nodes, which with {value}.",
      fix: 'Use the image built for {displayName} (its repository or tag for ltsc{release2}), or pin the workload to {value2} nodes; if the name is stale, tag the image with the build it is.',
    },
    'mixed-releases': {
      description:
        'An unpinned pod whose images are built for releases no one node runs together under process isolation.',
      message:
        "{path} '{image}' is built for Windows Server {release} but {path2} '{image2}' for Windows Server {release2}: with process isolation no node can run both.",
      fix: 'Use the same ltsc tag for every container of the pod, and pin the pod with nodeSelector {WINDOWS_BUILD_LABEL}.',
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
          report({ path, messageId: 'pinned', data: { reason: compat.reason, via: pin.via, fix: compat.fix } });
        }
        for (const { path, image, named, release } of namedReleaseImages(p)) {
          // As above: an unknown RuntimeClass may use Hyper-V, which runs older images too.
          if (hostRunsImage(pin.release, release, p.isolation)) continue;
          if (!p.isolationKnown && hostRunsImage(pin.release, release, 'hyperv')) continue;
          const host = releaseInfo(pin.release);
          const runs = hostsRunningImage(release, p.isolation)
            .map((r) => releaseInfo(r).displayName)
            .join(' or ');
          report({
            path,
            messageId: 'pinned-by-name',
            data: {
              image,
              release,
              build: named.build.build,
              evidence: named.evidence,
              via: pin.via,
              displayName: host.displayName,
              build2: host.build,
              value:
                p.isolation === 'hyperv'
                  ? 'Hyper-V isolation run only images as old as theirs or older'
                  : `process isolation run only ${runsOnHost(pin.release, 'process')} images`,
              release2: pin.release,
              value2: runs.length > 0 ? runs : `Windows Server ${release}`,
            },
            case: 'repository-name',
          });
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
        report({
          path,
          messageId: 'mixed-releases',
          data: {
            image,
            release,
            path2: first.path,
            image2: first.image,
            release2: first.release,
            WINDOWS_BUILD_LABEL,
          },
        });
      });
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The non-HostProcess images whose tag names a supported release, as [container, image, release].
        name: 'ibm_images',
        expression: `variables.imageRefs.filter(r, r[5] != 'true').map(r, [r[3], r[4], ${tagRelease('r[2]')}]).filter(i, i[2] in ${celStringList(WINDOWS_RELEASES)})`,
      },
      {
        // The images the pinned hosts cannot run (none when the pod pins no supported release).
        name: 'ibm_unrunnable',
        expression: `variables.pinRelease == '' ? [] : variables.ibm_images.filter(i, !${PIN_RUNS('i')})`,
      },
      {
        // The non-HostProcess images whose tag names no build and whose repository name names a supported release
        // the pinned hosts cannot run, as [container, image, release].
        name: 'ibm_unrunnableByName',
        expression: `variables.pinRelease == '' ? [] : variables.imageRefs.filter(r, r[5] != 'true' && ${tagRelease('r[2]')} == '').map(r, [r[3], r[4], ${nameRelease('r[1]')}]).filter(i, i[2] in ${celStringList(WINDOWS_RELEASES)} && !${PIN_RUNS('i')})`,
      },
    ],
    validations: [
      {
        expression: '!variables.windows || variables.ibm_unrunnable.size() == 0',
        messageExpression: `'image-build-mismatch: Image \\'' + variables.ibm_unrunnable[0][1] + '\\' (container ' + variables.ibm_unrunnable[0][0] + ') is built for Windows Server ' + variables.ibm_unrunnable[0][2] + ' but the pod is pinned by ' + variables.pinVia + ' to Windows Server ' + variables.pinRelease + ' nodes, which with process isolation run only ' + ${HOSTS}[variables.pinRelease]['process'].map(r, 'ltsc' + r).join(' or ') + ' images ("the container operating system does not match the host operating system"). Use the image\\'s ltsc' + variables.pinRelease + ' tag, or pin the workload to ' + ${celStringList(WINDOWS_RELEASES)}.filter(h, variables.ibm_unrunnable[0][2] in ${HOSTS}[h]['process']).map(h, 'Windows Server ' + h).join(' or ') + ' nodes.'`,
      },
      {
        case: 'repository-name',
        expression: '!variables.windows || variables.ibm_unrunnableByName.size() == 0',
        messageExpression: `'image-build-mismatch: container ' + variables.ibm_unrunnableByName[0][0] + ' image \\'' + variables.ibm_unrunnableByName[0][1] + '\\' looks built for Windows Server ' + variables.ibm_unrunnableByName[0][2] + ': its repository name names that build. The pod is pinned by ' + variables.pinVia + ' to Windows Server ' + variables.pinRelease + ' nodes, which with process isolation run only ' + ${HOSTS}[variables.pinRelease]['process'].map(r, 'ltsc' + r).join(' or ') + ' images. Use the image built for Windows Server ' + variables.pinRelease + ', or pin the workload to the release the image is built for; if the name is stale, tag the image with the build it is.'`,
      },
      {
        expression: `!variables.windows || variables.pinRelease != '' || variables.ibm_images.size() < 2 || ${HOSTS}.exists(h, variables.ibm_images.all(i, i[2] in ${HOSTS}[h]['process']))`,
        messageExpression: `'image-build-mismatch: container ' + variables.ibm_images[0][0] + ' image \\'' + variables.ibm_images[0][1] + '\\' is built for Windows Server ' + variables.ibm_images[0][2] + ' but another container\\'s image for Windows Server ' + variables.ibm_images.filter(i, i[2] != variables.ibm_images[0][2])[0][2] + ': with process isolation no node can run both. Use the same ltsc tag for every container of the pod, and pin the pod with nodeSelector ${WINDOWS_BUILD_LABEL}.'`,
      },
    ],
    limits:
      'A RuntimeClass pins the build and the isolation of the pods that name it: the policy judges the pin the pod writes itself (nodeSelector, node affinity, AKS os-sku), and for a pod naming a RuntimeClass accepts what Hyper-V isolation runs. Images are judged by their tags, and by their repository names where the tag names no build: what a registry says of a build-less tag (image-build-unavailable) stays in lint.',
  }),
});
