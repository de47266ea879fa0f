/**
 * image-build-unavailable: with `--resolve-images`, a Windows image with no entry for the build the pod is pinned to
 * (or `--windows-release`). Which builds a host runs is the table `HOST_COMPATIBILITY` (lib/core/facts/windows.ts):
 * a Windows Server 2025 host also runs ltsc2022 entries with process isolation; Hyper-V also runs older ones
 * (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import { hostRunsImage } from '../facts/windows';
import { releaseForBuild, releaseInfo } from '../releases';
import { recordNote, resolvedImages, windowsBuilds } from '../model/image-facts';
import { VERSION_COMPAT } from './docs';
import { defineRule } from './rule';

/** `10.0.17763` < `10.0.20348`. */
const buildNumber = (build: string): number => Number(build.split('.')[2]);

export default defineRule({
  meta: {
    id: 'image-build-unavailable',
    family: 'images',
    defaultSeverity: 'error',
    summary:
      'A Windows image with no entry for the Windows build the pod runs on (with --resolve-images, or by the bundled record of a well-known image).',
    rationale:
      'A custom image built FROM servercore:ltsc2019 under a tag such as :v2 runs only on 2019 nodes: elsewhere "the container operating system does not match the host operating system".',
    docs: VERSION_COMPAT,
    severityReason: 'The container cannot start on the nodes the pod is pinned to.',
  },
  messages: {
    'build-unavailable': {
      description: 'An image whose list has no entry for the build the pod runs on.',
      message:
        '{path} \'{image}\' is published for Windows build {value} only{facts}, but the pod runs on {target} (Windows Server {release}, {via}): "the container operating system does not match the host operating system".',
      fix: 'Rebuild the image FROM the ltsc{release} base (or publish a multi-platform index covering {target}), or pin the pod to {value2}.',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      const pin = p.pin;
      if (!p.windows || pin === undefined) return;
      const target = releaseInfo(pin.release).build;
      for (const { path, image, lookup, hostProcess } of resolvedImages(p, options.images)) {
        // HostProcess containers run on the host: their image need not match its build.
        if (hostProcess || lookup.status !== 'found') continue;
        const builds = windowsBuilds(lookup.facts);
        if (builds.length === 0) continue; // no Windows entry: image-os-missing
        const runs = builds.some((b) => {
          const release = releaseForBuild(b);
          if (release !== undefined) return hostRunsImage(pin.release, release, p.isolation);
          // A build no release table row names (an Insider or SAC build): only Hyper-V runs an older one.
          return p.isolation === 'hyperv' ? buildNumber(b) <= buildNumber(target) : b === target;
        });
        if (runs) continue;
        const named = builds.map((b) => `${b}${releaseForBuild(b) ? ` (Windows Server ${releaseForBuild(b)})` : ''}`);
        report({
          path,
          messageId: 'build-unavailable',
          data: {
            image,
            value: named.join(', '),
            facts: recordNote(lookup.facts),
            target,
            release: pin.release,
            via: pin.via,
            value2: named[0],
          },
        });
      }
    },
  },
});
