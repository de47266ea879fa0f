/**
 * image-legacy-repository: Docker Hub's `microsoft/*` Windows repositories, which Microsoft stopped updating when
 * it moved to mcr.microsoft.com (https://techcommunity.microsoft.com/blog/containers/the-microsoft-container-registry-mcr/382258).
 */
import { legacyWindowsRepository } from '../images';
import { podImages } from '../model/pod-images';
import { defineRule } from './rule';
import { LEGACY_SUCCESSORS, windowsImagePatterns } from '../images';
import { celImageRefs, IMAGE_REF, NON_HOST_PROCESS_CONTAINERS } from './cel-parts';
import { celString, celStringList } from './cel';

/** The legacy repositories and the Docker Hub hosts they count on, as images.ts holds them. */
const LEGACY = windowsImagePatterns();
/** Where the legacy repository `r[repository]` moved, in CEL. */
const SUCCESSOR = `(${Object.entries(LEGACY_SUCCESSORS)
  .map(([from, to]) => `r[${IMAGE_REF.repository}] == ${celString(from)} ? ${celString(to)} : `)
  .join('')}'the mcr.microsoft.com repository that replaced it')`;

export default defineRule({
  meta: {
    id: 'image-legacy-repository',
    family: 'images',
    defaultSeverity: 'warning',
    summary:
      'An image from a retired Docker Hub microsoft/* repository (microsoft/iis, microsoft/windowsservercore, ...) with a tag that names no build.',
    rationale:
      'Microsoft stopped updating these repositories in 2019; they hold Windows Server 2016 and SAC builds and nothing for 2022 or 2025.',
    docs: 'https://techcommunity.microsoft.com/blog/containers/the-microsoft-container-registry-mcr/382258',
    severityReason: 'The repository has no image for Windows Server 2022 or 2025 nodes.',
  },
  messages: {
    'legacy-repository': {
      description: 'An image of a retired microsoft/* Docker Hub repository.',
      message:
        "{path} '{image}' comes from the retired Docker Hub repository {repository}, which Microsoft stopped updating in 2019: it has images for Windows Server 2016 and SAC builds, none for 2022 or 2025 nodes.",
      fix: "Use {successor} with the ltsc tag of your nodes (e.g. ':ltsc2022' or a '-ltsc2022' suffix).",
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const { path, image, ref, built } of podImages(p)) {
        // A tag that names a build is judged by its build (image-sac, image-build-mismatch).
        const legacy = built.kind === 'unknown' ? legacyWindowsRepository(ref) : undefined;
        if (!legacy) continue;
        report({
          path,
          messageId: 'legacy-repository',
          data: {
            image,
            repository: legacy.repository,
            successor: legacy.successor ?? 'the mcr.microsoft.com repository that replaced it',
          },
        });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The images of non-HostProcess containers from a retired repository, with a tag that names no build.
        name: 'ilr_refs',
        expression: `${celImageRefs(NON_HOST_PROCESS_CONTAINERS)}.filter(r, r[${IMAGE_REF.build}] == '' && (r[${IMAGE_REF.registry}] == '' || r[${IMAGE_REF.registry}] in ${celStringList(LEGACY.dockerHubHosts)}) && r[${IMAGE_REF.repository}].matches(${celString(LEGACY.legacyRepository)}))`,
      },
    ],
    validations: [
      {
        expression: `!variables.windows || size(variables.ilr_refs) == 0`,
        messageExpression: `'image-legacy-repository: ' + variables.ilr_refs.map(r, "container '" + r[${IMAGE_REF.name}] + "' image '" + r[${IMAGE_REF.image}] + "' comes from the retired Docker Hub repository " + r[${IMAGE_REF.repository}] + ', which Microsoft stopped updating in 2019: it has images for Windows Server 2016 and SAC builds, none for 2022 or 2025 nodes. Use ' + ${SUCCESSOR} + " with the ltsc tag of your nodes (e.g. ':ltsc2022' or a '-ltsc2022' suffix).").join(' ')`,
      },
    ],
  }),
});
