/**
 * image-sac: an image built for a release no supported node runs — a Semi-Annual Channel build (1709 … 20H2) or
 * Windows Server 2016 (https://learn.microsoft.com/windows-server/get-started/windows-server-release-info).
 */
import { podImages } from '../model/pod-images';
import { defineRule } from './rule';
import { VERSION_COMPAT } from './docs';
import { RETIRED_RELEASES } from '../releases';
import { celImageRefs, IMAGE_REF, NON_HOST_PROCESS_CONTAINERS } from './cel-parts';
import { celString, celStringList } from './cel';

/** The retired builds, and the display name of the build `r[build]` names, in CEL. */
const RETIRED_BUILDS = celStringList(RETIRED_RELEASES.map((r) => r.build));
const RETIRED_NAME = `(${RETIRED_RELEASES.map((r) => `r[${IMAGE_REF.build}] == ${celString(r.build)} ? ${celString(r.displayName)} : `).join('')}'')`;

export default defineRule({
  meta: {
    id: 'image-sac',
    family: 'images',
    defaultSeverity: 'error',
    summary:
      'An image built for a retired Windows release: 2016 (ltsc2016) or an end-of-life SAC release (1709 to 20H2).',
    rationale: 'No supported node runs Windows Server 2016 or a SAC build (1709, 1803, 1903, 1909, 2004, 20H2).',
    docs: VERSION_COMPAT,
    severityReason: 'No supported node can run the image.',
  },
  messages: {
    'retired-release': {
      description: 'An image built for a retired Windows release.',
      message:
        '{path} \'{image}\' is built for {displayName} (build {build}), which no supported node runs: "the container operating system does not match the host operating system".',
      fix: 'Rebuild it on an LTSC base image (ltsc2022 or ltsc2025) and use that tag.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const { path, image, built } of podImages(p)) {
        if (built.kind !== 'retired') continue;
        report({
          path,
          messageId: 'retired-release',
          data: { image, displayName: built.displayName, build: built.build },
        });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [{ name: 'isac_refs', expression: celImageRefs(NON_HOST_PROCESS_CONTAINERS) }],
    validations: [
      {
        expression: `!variables.windows || !variables.isac_refs.exists(r, r[${IMAGE_REF.build}] in ${RETIRED_BUILDS})`,
        messageExpression: `'image-sac: ' + variables.isac_refs.filter(r, r[${IMAGE_REF.build}] in ${RETIRED_BUILDS}).map(r, "container '" + r[${IMAGE_REF.name}] + "' image '" + r[${IMAGE_REF.image}] + "' is built for " + ${RETIRED_NAME} + ' (build ' + r[${IMAGE_REF.build}] + ')').join(', ') + ', which no supported node runs: "the container operating system does not match the host operating system". Rebuild it on an LTSC base image (ltsc2022 or ltsc2025) and use that tag.'`,
      },
    ],
  }),
});
