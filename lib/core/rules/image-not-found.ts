/**
 * image-not-found: with `--resolve-images`, an image whose repository or tag the registry does not have; the kubelet
 * fails the pull (ErrImagePull, then ImagePullBackOff) on every node
 * (https://kubernetes.io/docs/concepts/containers/images/#imagepullbackoff).
 */
import { resolvedImages } from '../model/image-facts';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'image-not-found',
    family: 'images',
    defaultSeverity: 'error',
    summary: 'An image the registry does not have (with --resolve-images).',
    rationale: 'The kubelet cannot pull a repository or tag that does not exist: the pod stays in ImagePullBackOff.',
    docs: 'https://kubernetes.io/docs/concepts/containers/images/#imagepullbackoff',
    severityReason: 'The container cannot start anywhere.',
  },
  messages: {
    'not-found': {
      description: 'The registry has no such image or tag.',
      message: "{path} '{image}': {message}",
      fix: 'Check the repository and tag (a typo, or a tag not pushed yet).',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      for (const { path, image, lookup } of resolvedImages(p, options.images)) {
        if (lookup.status !== 'not-found') continue;
        report({ path, messageId: 'not-found', data: { image, message: lookup.message } });
      }
    },
  },
});
