/**
 * image-floating-tag: a Windows image whose tag names no build. containerd on a Windows node pulls the manifest
 * list entry whose `os.version` matches the host; a single-build image behind such a tag runs only on nodes of
 * its build (https://learn.microsoft.com/virtualization/windowscontainers/deploy-containers/version-compatibility).
 * With `--resolve-images` an image the registry answered for is not asked about: its platforms are known, and
 * image-single-build, image-build-unavailable and image-os-missing say what is wrong with them.
 */
import { BUILDLESS_TAG_FIX, legacyWindowsRepository, windowsBuildCoverage } from '../images';
import { podImages } from '../model/pod-images';
import { VERSION_COMPAT } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'image-floating-tag',
    family: 'images',
    refusedByConstructs: true,
    defaultSeverity: 'info',
    summary:
      'A Windows image whose tag names no Windows build (`1.0`, `latest`, no tag), from a publisher not known to ship multi-arch lists.',
    rationale:
      "A multi-arch manifest list lets containerd pick the entry for the node's build; a single-build image behind such a tag runs only on nodes of its build. Check the manifest covers your nodes.",
    docs: VERSION_COMPAT,
    severityReason:
      'The reference cannot tell a multi-arch manifest list from a single-build image; known multi-arch publishers are not reported.',
  },
  messages: {
    'floating-tag': {
      description: 'A Windows image whose tag names no Windows build.',
      message:
        "{path} '{image}' has {value} no Windows build: if it is a single-build image it runs only on nodes of that build; a multi-arch manifest list is fine when it has an entry for every node build.",
      fix: '{fix}',
    },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: "Use an image tag that names the Windows build of the workload's `windows.release` (`ltsc2022` by default), or a multi-arch tag.",
    }),
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows) return;
      for (const { path, image, ref, built, named } of podImages(p)) {
        // Legacy repositories are image-legacy-repository; digests and known multi-arch publishers do not float; a
        // repository named for one build (sql-windows-1809) holds that build whatever the tag (image-build-unpinned).
        if (built.kind !== 'unknown' || named !== undefined || legacyWindowsRepository(ref)) continue;
        if (ref.digest !== undefined || windowsBuildCoverage(ref) === 'multi') continue;
        if (options.images?.[image]?.status === 'found') continue;
        report({
          path,
          messageId: 'floating-tag',
          data: {
            image,
            value: ref.tag ? `tag '${ref.tag}', which names` : 'no tag (it means :latest) and names',
            fix: BUILDLESS_TAG_FIX,
          },
        });
      }
    },
  },
});
