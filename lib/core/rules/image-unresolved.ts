/**
 * image-unresolved: with `--resolve-images`, an image whose registry could not be asked (down, or refusing the
 * credentials given) or whose answer failed verification (content that does not match its digest, a digest
 * algorithm that cannot be verified, a body over the size cap): the image rules could not check it, so the run says
 * so instead of passing it silently.
 */
import { resolvedImages } from '../model/image-facts';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'image-unresolved',
    family: 'images',
    defaultSeverity: 'info',
    summary:
      'An image the registry could not be asked about (with --resolve-images): unreachable, unauthorized, or an answer that failed verification.',
    rationale: 'Its platforms, builds and user were not checked.',
    docs: 'https://github.com/opencontainers/distribution-spec/blob/main/spec.md',
    severityReason: 'Nothing is known to be wrong: the check could not run.',
    cases: [
      {
        name: 'unauthorized',
        severity: 'warning',
        when: 'The registry refused the credentials this machine has; nodes without better ones fail the pull too.',
      },
      {
        name: 'invalid',
        severity: 'warning',
        when: 'The registry answered with content that does not match its digest, a digest that cannot be verified, or more than any manifest holds: a corrupt or tampered registry or mirror, which nodes pulling through it meet too.',
      },
    ],
  },
  messages: {
    unreachable: {
      description: 'The registry did not answer (or lint ran offline).',
      message: "{path} '{image}' was not checked: {message}",
      fix: 'Run again when the registry answers (or with a longer --resolve-timeout), or without --offline.',
    },
    unauthorized: {
      description: 'The registry refused the credentials it was given, or asked for some.',
      message: "{path} '{image}' was not checked: {message}",
      fix: 'Log in to the registry (docker login, or a credential helper in the Docker config), and give the pods an imagePullSecret if the nodes have no credentials.',
    },
    invalid: {
      description: 'The answer failed verification (a digest or manifest that does not match).',
      message: "{path} '{image}' was not checked: {message}",
      fix: 'Check the registry or mirror that answered (its storage, or who controls it); pin the image by a sha256 digest from a source you trust.',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      for (const { path, image, lookup } of resolvedImages(p, options.images)) {
        if (lookup.status === 'unreachable') {
          report({ path, messageId: 'unreachable', data: { image, message: lookup.message } });
        } else if (lookup.status === 'unauthorized') {
          report({ path, messageId: 'unauthorized', data: { image, message: lookup.message }, case: 'unauthorized' });
        } else if (lookup.status === 'invalid') {
          report({ path, messageId: 'invalid', data: { image, message: lookup.message }, case: 'invalid' });
        }
      }
    },
  },
});
