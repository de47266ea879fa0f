/**
 * image-os-missing: an image with no entry for the pod's OS, by the registry's answer (`--resolve-images`) or, without
 * one, by the bundled record of a well-known image (a Docker Official Image's library file, Microsoft's records of
 * its Windows images: lib/core/facts/well-known-images.ts). containerd picks the image
 * index entry for the node's platform and fails with "no matching manifest for windows/amd64" when there is none
 * (https://github.com/opencontainers/image-spec/blob/main/image-index.md; a Linux-only `busybox` init container or
 * `envoy` sidecar in a Windows pod is the common case).
 */
import { osMissingFinding, resolvedImages } from '../model/image-facts';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'image-os-missing',
    family: 'images',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary:
      "An image with no entry for the pod's OS (a Linux-only image in a Windows pod, or the reverse): by the registry with --resolve-images, else by the bundled records of well-known images (Docker Official Images, Microsoft's Windows images).",
    rationale:
      'The node pulls the index entry for its own platform; with none the pull fails: "no matching manifest for windows/amd64".',
    docs: 'https://kubernetes.io/docs/concepts/windows/user-guide/',
    severityReason: 'The container cannot start on the nodes the pod runs on.',
  },
  messages: {
    'os-missing': { description: "An image with no entry for the pod's OS.", message: '{message}', fix: '{fix}' },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      const os = p.windows ? 'windows' : p.declaredOs === 'linux' || p.osBySelector === 'linux' ? 'linux' : undefined;
      if (os === undefined) return;
      for (const { path, image, lookup } of resolvedImages(p, options.images)) {
        if (lookup.status !== 'found' || lookup.facts.platforms.some((x) => x.os === os)) continue;
        const { message, fix } = osMissingFinding(path, image, lookup.facts, os);
        report({ path, messageId: 'os-missing', data: { message, fix } });
      }
    },
  },
});
