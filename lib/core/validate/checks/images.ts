/**
 * Image/host build rules (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility): process isolation needs the image build to equal the node build, Hyper-V
 * the same or older; SAC images run nowhere; tags without a build float. HostProcess containers are exempt.
 */
import {
  BUILDLESS_TAG_FIX,
  checkImageCompatibility,
  inferWindowsBuild,
  legacyWindowsRepository,
  parseImageReference,
  windowsBuildCoverage,
  type ImageReference,
} from '../../images';
import { checkCloudRelease, cloudReleaseGate } from '../../cloud-gates';
import { WINDOWS_BUILD_LABEL } from '../../kube';
import { parseKubernetesMinor, releaseInfo, type WindowsRelease } from '../../releases';
import type { FixEdit, FixerTable, FixTarget, TargetFixerTable } from '../fixes';
import type { PodFacts, ReleasePin } from '../pod';
import type { Report } from '../report';
import type { ValidateOptions } from '../types';
import { join, key, stringMap } from '../util';

export function checkImages(p: PodFacts, options: ValidateOptions, report: Report): void {
  if (!p.windows) return;
  /** The first image that names a release, for pods with no pin: every other image must match it. */
  let first: { release: WindowsRelease; path: string; image: string } | undefined;
  for (const c of p.containers) {
    if (c.hostProcess) continue;
    const image = c.c.image;
    if (typeof image !== 'string') continue;
    const ref = parseImageReference(image);
    if (!ref) continue;
    const path = join(c.path, 'image');
    const built = inferWindowsBuild(ref.tag);
    switch (built.kind) {
      case 'retired':
        report(
          'image-sac',
          path,
          `${path} '${image}' is built for ${built.displayName} (build ${built.build}), which no supported node runs: "the container operating system does not match the host operating system".`,
          'Rebuild it on an LTSC base image (ltsc2022 or ltsc2025) and use that tag.',
        );
        break;
      case 'unknown':
        checkBuildlessTag(image, ref, path, report);
        break;
      case 'release':
        if (p.pin) {
          checkPinnedImage(p, p.pin, image, path, report);
        } else if (first === undefined) {
          first = { release: built.release, path, image };
        } else if (first.release !== built.release && p.isolation === 'process') {
          report(
            'image-build-mismatch',
            path,
            `${path} '${image}' is built for Windows Server ${built.release} but ${first.path} '${first.image}' for Windows Server ${first.release}: with process isolation no node can run both.`,
            `Use the same ltsc tag for every container of the pod, and pin the pod with nodeSelector ${WINDOWS_BUILD_LABEL}.`,
          );
        }
        break;
      default: {
        const never: never = built;
        throw new Error(`unknown image build ${JSON.stringify(never)}`);
      }
    }
  }
  if (first !== undefined && p.pin === undefined && p.retiredPin === undefined) checkUnpinned(p, first, report);
  checkReleaseSupport(p, first, options, report);
}

/**
 * A tag that names no build. Legacy Docker Hub repositories hold only retired builds; known multi-arch publishers
 * ship manifest lists that containerd resolves per node build; for anything else the reference cannot tell.
 */
function checkBuildlessTag(image: string, ref: ImageReference, path: string, report: Report): void {
  const legacy = legacyWindowsRepository(ref);
  if (legacy) {
    report(
      'image-legacy-repository',
      path,
      `${path} '${image}' comes from the retired Docker Hub repository ${legacy.repository}, which Microsoft stopped updating in 2019: it has images for Windows Server 2016 and SAC builds, none for 2022 or 2025 nodes.`,
      `Use ${legacy.successor ?? 'the mcr.microsoft.com repository that replaced it'} with the ltsc tag of your nodes (e.g. ':ltsc2022' or a '-ltsc2022' suffix).`,
    );
    return;
  }
  if (ref.digest !== undefined || windowsBuildCoverage(ref) === 'multi') return;
  report(
    'image-floating-tag',
    path,
    `${path} '${image}' has ${ref.tag ? `tag '${ref.tag}', which names` : 'no tag (it means :latest) and names'} no Windows build: if it is a single-build image it runs only on nodes of that build; a multi-arch manifest list is fine when it has an entry for every node build.`,
    BUILDLESS_TAG_FIX,
  );
}

/** An image that names a release, in a pod pinned to a release. */
function checkPinnedImage(p: PodFacts, pin: ReleasePin, image: string, path: string, report: Report): void {
  const compat = checkImageCompatibility(image, pin.release, p.isolation);
  if (compat.status !== 'incompatible') return;
  // A RuntimeClass outside the set may use the Hyper-V handler, which also runs older images: only an image
  // newer than the host fails under both isolations.
  if (!p.isolationKnown && checkImageCompatibility(image, pin.release, 'hyperv').status !== 'incompatible') return;
  report('image-build-mismatch', path, `${compat.reason} The pod is pinned by ${pin.via}.`, compat.fix);
}

/**
 * A single-build image in a pod that pins no build: with process isolation it starts only on nodes of that build,
 * and fails on every other ("the container operating system does not match the host operating system").
 */
function checkUnpinned(
  p: PodFacts,
  first: { release: WindowsRelease; path: string; image: string },
  report: Report,
): void {
  // A RuntimeClass outside the set may carry the build selector, and a pool label (agentpool: win22) may pin a
  // pool of one release; Hyper-V runs older images on newer hosts.
  if (p.isolation !== 'process' || !p.isolationKnown || p.poolSelector !== undefined) return;
  const info = releaseInfo(first.release);
  report(
    'image-build-unpinned',
    join(p.path, 'nodeSelector'),
    `${first.path} '${first.image}' is built for ${info.displayName} only, but the pod pins no Windows build: on nodes of any other release it fails with "the container operating system does not match the host operating system".`,
    `Add nodeSelector { ${WINDOWS_BUILD_LABEL}: '${info.build}' } (or a RuntimeClass that pins it), or use a multi-arch image that covers every node build.`,
  );
}

/**
 * A release the cluster's Kubernetes version does not support: with `options.cloud`, that cloud's gates (AKS ends
 * Windows2019 after 1.32 and Windows2022 after 1.36, EKS starts 2025 at 1.35); without it, the upstream GA minor
 * and the first retirement a cloud has announced (AKS, Windows Server 2019 after 1.32).
 */
function checkReleaseSupport(
  p: PodFacts,
  fromImage: { release: WindowsRelease; path: string } | undefined,
  options: ValidateOptions,
  report: Report,
): void {
  if (typeof options.kubernetesVersion !== 'string') return;
  const minor = parseKubernetesMinor(options.kubernetesVersion);
  if (minor === undefined) return;
  const target = p.pin && p.pin.path !== '' ? p.pin : fromImage;
  if (!target) return;
  const info = releaseInfo(target.release);
  const version = `1.${minor}`;
  const upgrade = 'Move the workload to a supported release: its nodes and images (ltsc2022 / ltsc2025).';
  if (options.cloud !== undefined) {
    const violation = checkCloudRelease(options.cloud, target.release, options.kubernetesVersion);
    if (violation) {
      report(
        'windows-release-support',
        target.path,
        `This pod needs ${info.displayName} nodes: ${violation.message}`,
        violation.fix,
      );
    }
    return;
  }
  // The first retirement a cloud has announced (AKS ends Windows2019 after 1.32) stands for upstream's, which
  // publishes no end date but no longer lists the release.
  const retiredAfter = cloudReleaseGate('aks', target.release)?.lastMinor;
  if (target.release === '2019' && retiredAfter !== undefined && minor > retiredAfter) {
    report(
      'windows-release-support',
      target.path,
      `This pod needs ${info.displayName} nodes, which Kubernetes ${version} no longer supports (AKS refuses them from 1.${retiredAfter + 1}; upstream no longer lists them).`,
      upgrade,
    );
  } else if (minor < info.firstKubernetesMinor) {
    report(
      'windows-release-support',
      target.path,
      `This pod needs ${info.displayName} nodes, which Kubernetes supports from 1.${info.firstKubernetesMinor}, not ${version}.`,
      `Upgrade the cluster to 1.${info.firstKubernetesMinor} or later, or use an older Windows release.`,
    );
  }
}

/** The release the pod's first single-build image is built for. */
function imageRelease(p: PodFacts): WindowsRelease | undefined {
  for (const c of p.containers) {
    if (c.hostProcess || typeof c.c.image !== 'string') continue;
    const ref = parseImageReference(c.c.image);
    const built = ref ? inferWindowsBuild(ref.tag) : undefined;
    if (built?.kind === 'release') return built.release;
  }
  return undefined;
}

/**
 * The edit that pins a Windows pod to `release`: `runtimeClassName` when the target names one, else the build
 * selector. None for pods that pin a build already (or select a pool that may), HostProcess pods (they run on any
 * build) and DaemonSets whose images name no build (multi-arch node agents follow every Windows node).
 */
export function releasePin(p: PodFacts, target: FixTarget, release = target.release): FixEdit[] {
  if (release === undefined || p.hostProcess || p.runtimeClassName !== undefined) return [];
  // Pinned already, by the engine's reading (build selector or affinity, AKS os-sku, a retired build), or by a
  // pool label whose release the input does not show.
  if ((p.pin !== undefined && p.pin.path !== '') || p.retiredPin !== undefined || p.poolSelector !== undefined)
    return [];
  if (stringMap(p.spec, 'nodeSelector')[WINDOWS_BUILD_LABEL] !== undefined) return [];
  if (p.kind === 'DaemonSet' && imageRelease(p) === undefined) return [];
  if (target.runtimeClassName !== undefined && release === target.release) {
    return [{ op: 'set', path: join(p.path, 'runtimeClassName'), value: target.runtimeClassName }];
  }
  return [
    { op: 'set', path: join(p.path, 'nodeSelector', key(WINDOWS_BUILD_LABEL)), value: releaseInfo(release).build },
  ];
}

/**
 * A single-build image in an unpinned pod is pinned to the target's release when one is given (a wrong image then
 * shows as image-build-mismatch), else to the build its image needs: the only build it can start on.
 */
export const IMAGE_FIXES: FixerTable = {
  'image-build-unpinned': ({ pod, target }) => releasePin(pod, target, target.release ?? imageRelease(pod)),
};

/** The release the user gave: every unpinned Windows pod gets it, whether or not a rule asked. */
export const IMAGE_TARGET_FIXES: TargetFixerTable = {
  'image-build-unpinned': ({ pod, target }) => releasePin(pod, target),
};
