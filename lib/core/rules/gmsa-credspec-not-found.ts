/**
 * gmsa-credspec-not-found: the gMSA webhook rejects a pod naming a GMSACredentialSpec that does not exist
 * (https://github.com/kubernetes-sigs/windows-gmsa/blob/master/admission-webhook/webhook.go). Judged only when the
 * pod's file holds credspecs: the one it names may already be in the cluster.
 */
import { credspecNames } from '../model/credspecs';
import { GMSA } from './docs';
import { defineRule } from './rule';

/** How many credspec names a message lists before eliding the rest. */
const MAX_NAMES_SHOWN = 5;

export default defineRule({
  meta: {
    id: 'gmsa-credspec-not-found',
    family: 'gmsa',
    defaultSeverity: 'warning',
    summary: 'A pod names a GMSACredentialSpec that is not in the input set (which has others).',
    rationale: 'The gMSA webhook rejects pods naming a credspec that does not exist.',
    docs: GMSA,
    severityReason:
      'Only credspecs from the same file are compared, and the credspec may exist in the cluster already.',
  },
  messages: {
    'not-found': {
      description: 'A gmsaCredentialSpecName that names no GMSACredentialSpec of the set.',
      message: "{path} '{name}' names no GMSACredentialSpec in its file (it has {value}{value2}).",
      fix: 'Create the GMSACredentialSpec or fix the name.',
    },
  },
  check: {
    scope: 'pod',
    run(p, { index, local }, report) {
      if (local.credspecs.size === 0) return;
      for (const [name, path] of credspecNames(p)) {
        if (index.credspecs.has(name)) continue;
        const known = [...local.credspecs.keys()];
        report({
          path,
          messageId: 'not-found',
          data: {
            name,
            value: known
              .slice(0, MAX_NAMES_SHOWN)
              .map((k) => `'${k}'`)
              .join(', '),
            value2: known.length > MAX_NAMES_SHOWN ? ', ...' : '',
          },
        });
      }
    },
  },
});
