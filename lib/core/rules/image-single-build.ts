/**
 * image-single-build: with `--resolve-images`, a Windows image published for one build only, behind a tag that does
 * not say so (`:2e`, `:v2`), in a pod pinned to no build: the scheduler may place it on nodes of another release,
 * where it cannot start (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 */
import { WINDOWS_BUILD_LABEL } from '../kube';
import { inferWindowsBuild, parseImageReference } from '../images';
import { releaseForBuild } from '../releases';
import { recordNote, resolvedImages, windowsBuilds } from '../model/image-facts';
import { VERSION_COMPAT } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'image-single-build',
    family: 'images',
    defaultSeverity: 'warning',
    summary:
      'A Windows image published for one build only, under a tag that names none, in a pod pinned to no build (with --resolve-images, or by the bundled record of a well-known image).',
    rationale:
      'Only nodes of that build can run it; an unpinned pod lands on any Windows node. (A tag that names the build is image-build-unpinned.)',
    docs: VERSION_COMPAT,
    severityReason: 'It runs where the build matches and fails on the other Windows nodes.',
    fixable: 'Pins the pod to the build its images share.',
  },
  messages: {
    'single-build': {
      description: 'An image published for one build only, under a tag that names none, in an unpinned pod.',
      message:
        '{path} \'{image}\' is published for Windows build {value}{value2} only{facts}, and the pod pins no build: on nodes of any other release it fails with "the container operating system does not match the host operating system".',
      fix: "Add nodeSelector { {WINDOWS_BUILD_LABEL}: '{value}' } (or a RuntimeClass that pins it), or publish the image for every node build.",
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows || p.pin !== undefined) return;
      for (const { path, image, lookup, hostProcess } of resolvedImages(p, options.images)) {
        if (hostProcess || lookup.status !== 'found') continue;
        if (inferWindowsBuild(parseImageReference(image)?.tag).kind !== 'unknown') continue;
        const builds = windowsBuilds(lookup.facts);
        if (builds.length !== 1) continue;
        const release = releaseForBuild(builds[0]);
        report({
          path,
          messageId: 'single-build',
          data: {
            image,
            value: builds[0],
            value2: release ? ` (Windows Server ${release})` : '',
            facts: recordNote(lookup.facts),
            WINDOWS_BUILD_LABEL,
          },
        });
      }
    },
  },
  // The build every resolved Windows image of the pod is published for; none when they share none or several.
  fix: ({ pod, images }) => {
    if (pod.pin !== undefined) return [];
    let shared: string[] | undefined;
    for (const { lookup, hostProcess } of resolvedImages(pod, images)) {
      if (hostProcess || lookup.status !== 'found') continue;
      const builds = windowsBuilds(lookup.facts);
      if (builds.length === 0) continue;
      shared = shared === undefined ? builds : shared.filter((b) => builds.includes(b));
    }
    if (shared?.length !== 1) return [];
    return [{ op: 'set', path: `${pod.path}.nodeSelector[${WINDOWS_BUILD_LABEL}]`, value: shared[0] }];
  },
});
