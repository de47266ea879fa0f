/**
 * Image/host build rules (reference §1): process isolation needs the image build to equal the node build, Hyper-V
 * the same or older; SAC images run nowhere; tags without a build float. HostProcess containers are exempt.
 */
import { checkImageCompatibility, inferWindowsBuild, parseImageReference } from '../../images';
import { WINDOWS_BUILD_LABEL } from '../../kube';
import { parseKubernetesMinor, releaseInfo, type WindowsRelease } from '../../releases';
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import type { ValidateOptions } from '../types';
import { join } from '../util';

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
      case 'sac':
        report(
          'image-sac',
          path,
          `${path} '${image}' is built for the end-of-life SAC release ${built.name} (build ${built.build}), which no supported node runs.`,
          'Rebuild it on an LTSC base image (ltsc2022 or ltsc2025) and use that tag.',
        );
        break;
      case 'unknown':
        if (ref.digest === undefined) {
          report(
            'image-floating-tag',
            path,
            `${path} '${image}' has ${ref.tag ? `tag '${ref.tag}', which names` : 'no tag (it means :latest) and names'} no Windows build, so it can float to an image for another build.`,
            `Use the tag for your nodes' release (e.g. '...-ltsc2022'), or a multi-arch manifest list covering every node build, pinned by digest.`,
          );
        }
        break;
      case 'release':
        if (p.pin) {
          const compat = checkImageCompatibility(image, p.pin.release, p.isolation);
          if (compat.status === 'incompatible') {
            report('image-build-mismatch', path, `${compat.reason} The pod is pinned by ${p.pin.via}.`, compat.fix);
          }
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
  checkReleaseSupport(p, first, options, report);
}

/** A release the cluster's Kubernetes version does not support (AKS refuses 2019 from 1.33; GA minors). */
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
  if (info.aksLastKubernetesMinor !== undefined && minor > info.aksLastKubernetesMinor) {
    report(
      'windows-release-support',
      target.path,
      `This pod needs ${info.displayName} nodes, which Kubernetes ${version} no longer supports (AKS refuses them from 1.${info.aksLastKubernetesMinor + 1}; upstream no longer lists them).`,
      'Move the workload to Windows Server 2022 or 2025 nodes and images (ltsc2022 / ltsc2025).',
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
