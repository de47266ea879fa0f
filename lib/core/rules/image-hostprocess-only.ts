/**
 * image-hostprocess-only: an image built on the HostProcess base image runs only as a HostProcess container; Microsoft
 * says the base "cannot be used with any other type of Windows container"
 * (https://github.com/microsoft/windows-host-process-containers-base-image). Run as an ordinary container, it fails
 * to start on every node. Without resolution the rule knows the base image and windows_exporter by name; with
 * `--resolve-images` it knows any image the registry shows with no Windows base (hostProcessBaseFacts).
 */
import { HOST_PROCESS_BASE_REPOSITORY, HOSTPROCESS_BUILT_ON_BASE, hostProcessOnlyImage } from '../images';
import { hostProcessBaseFacts, type ImageLookups } from '../model/image-facts';
import { podImages } from '../model/pod-images';
import { HOST_PROCESS } from './docs';
import { defineRule } from './rule';
import { celImageRefs, IMAGE_REF, NON_HOST_PROCESS_CONTAINERS, re2 } from './cel-parts';
import { celString } from './cel';

/** RE2 for a count below `n` (leading zeros allowed, as Number() reads them); undefined below 1. */
const below = (n: number): string | undefined =>
  n < 1 ? undefined : `0*(?:${Array.from({ length: n }, (_, i) => String(i)).join('|')})`;
/**
 * RE2 for an image whose tag is a version older than `[major, minor]` (taggedSince's `^v?(\\d+)\\.(\\d+)`, on the
 * tag as written); undefined when no version is older.
 */
function olderThan([major, minor]: readonly [number, number]): string | undefined {
  const same = major === 0 ? '0+' : `0*${major}`;
  const versions = [
    ...(below(major) === undefined ? [] : [`${below(major)}\\.[0-9]+`]),
    ...(below(minor) === undefined ? [] : [`${same}\\.${below(minor)}`]),
  ];
  return versions.length === 0 ? undefined : `^[^@]*:v?(?:${versions.join('|')})(?:[^0-9][\\w.-]*)?(?:@[^@]*)?$`;
}
/** Whether the image `r` is tagged `since` or later, or with no version (taggedSince), in CEL. */
function taggedSince(since: readonly [number, number]): string {
  const older = olderThan(since);
  return `(r[${IMAGE_REF.tag}] == '' ? !r[${IMAGE_REF.image}].contains('@') : ${older === undefined ? 'true' : `!r[${IMAGE_REF.image}].matches(${celString(older)})`})`;
}
/** What the image `r` is when it runs only as HostProcess (hostProcessOnlyImage), '' when it does not, in CEL. */
const WHAT = `(r[${IMAGE_REF.repository}].endsWith(${celString(HOST_PROCESS_BASE_REPOSITORY)}) ? ${celString("Microsoft's HostProcess base image")} : ${HOSTPROCESS_BUILT_ON_BASE.map(
  (i) =>
    `r[${IMAGE_REF.where}].matches(${celString(re2(i.repository))}) && ${taggedSince(i.since)} ? ${celString(i.what)} : `,
).join('')}'')`;

/** Why the registry's answer shows a HostProcess-only image; undefined when it does not. */
function byFacts(image: string, lookups: ImageLookups | undefined): string | undefined {
  const lookup = lookups !== undefined && Object.hasOwn(lookups, image) ? lookups[image] : undefined;
  if (lookup?.status !== 'found' || !hostProcessBaseFacts(lookup.facts)) return undefined;
  return 'an image with no Windows base layers (the registry shows no os.version and only a few MB of layers, as for images built on the HostProcess base image)';
}

export default defineRule({
  meta: {
    id: 'image-hostprocess-only',
    family: 'images',
    defaultSeverity: 'error',
    summary:
      'A HostProcess-only image (the HostProcess base image, windows_exporter 0.30 and later, or with --resolve-images any image with no Windows base layers) in an ordinary container.',
    rationale:
      'Images built on the HostProcess base image have no Windows base layers: they run only as HostProcess containers, on the host.',
    docs: HOST_PROCESS,
    severityReason: 'The container cannot start as an ordinary (process-isolated) Windows container.',
  },
  messages: {
    'hostprocess-only': {
      description: 'A HostProcess-only image in an ordinary container.',
      message: "{path} '{image}' is {what}: it runs only as a HostProcess container, and this container is not one.",
      fix: 'Run it as a HostProcess container: securityContext.windowsOptions.hostProcess: true with hostNetwork: true (in k8s-windows, WindowsHostProcessDaemonSet).',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      // podImages holds the non-HostProcess containers only.
      for (const { path, image, ref } of podImages(p)) {
        const what = hostProcessOnlyImage(ref) ?? byFacts(image, options.images);
        if (what === undefined) continue;
        report({ path, messageId: 'hostprocess-only', data: { image, what } });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The images of non-HostProcess containers that run only as HostProcess, each with what it is.
        name: 'ihp_found',
        expression: `${celImageRefs(NON_HOST_PROCESS_CONTAINERS, [], { build: false })}.map(r, [r[${IMAGE_REF.name}], r[${IMAGE_REF.image}], ${WHAT}]).filter(f, f[2] != '')`,
      },
    ],
    validations: [
      {
        expression: 'size(variables.ihp_found) == 0',
        messageExpression: `'image-hostprocess-only: ' + variables.ihp_found.map(f, "container '" + f[0] + "' image '" + f[1] + "' is " + f[2]).join(', ') + ': it runs only as a HostProcess container, and this container is not one. Run it as a HostProcess container: securityContext.windowsOptions.hostProcess: true with hostNetwork: true (in k8s-windows, WindowsHostProcessDaemonSet).'`,
      },
    ],
    limits:
      'An image the registry shows with no Windows base layers (--resolve-images) is judged by lint only: the policy knows the HostProcess base image and the images built on it by name.',
  }),
});
