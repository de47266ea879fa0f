/**
 * gmsa-credspec-name: pods name the credspec in `gmsaCredentialSpecName`, which the API server requires to be a
 * lowercase DNS-1123 subdomain; the GMSACredentialSpec is cluster-scoped, so a namespace on it is ignored
 * (https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/). The GmsaCredentialSpec constructs
 * run it on the object they emit (`refusedByConstructs`).
 */
import { isDns1123Subdomain } from '../windows-options';
import { has, own, rec, show } from '../model/util';
import { GMSA } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gmsa-credspec-name',
    family: 'gmsa',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'A GMSACredentialSpec name pods cannot reference, or a namespace on the cluster-scoped object.',
    rationale: 'Pods name the credspec in gmsaCredentialSpecName, which must be a lowercase DNS-1123 subdomain.',
    docs: GMSA,
    severityReason: 'Pods cannot reference it (a namespace on the object is a warning: it is ignored).',
    cases: [
      {
        name: 'namespace',
        severity: 'warning',
        when: 'metadata.namespace on the cluster-scoped object: it is ignored, but says the credspec belongs to one namespace when every namespace can use it.',
      },
    ],
  },
  messages: {
    name: {
      description: 'A metadata.name that is not a DNS-1123 subdomain, which pods cannot name.',
      message:
        "metadata.name '{name}' is not a lowercase DNS-1123 subdomain (a-z, 0-9, '-', '.'; at most 253 characters): pods cannot name it in gmsaCredentialSpecName.",
      fix: "Rename it to '{value}'.",
      // The constructs write metadata.name from their `name` input; Pulumi's defaults to the resource name.
      frontDoorFixes: {
        cdk8s: ({ fix }) => ({ fix: `Set the \`name\` prop${fix === undefined ? '.' : `: ${fix}`}` }),
        pulumi: ({ fix }) => ({
          fix: `Set the \`name\` arg (it defaults to the resource name)${fix === undefined ? '.' : `: ${fix}`}`,
        }),
      },
    },
    namespace: {
      description: 'metadata.namespace on the cluster-scoped GMSACredentialSpec.',
      message: 'metadata.namespace {meta} is set on a cluster-scoped GMSACredentialSpec.',
      fix: 'Remove metadata.namespace.',
    },
  },
  check: {
    scope: 'object',
    kinds: ['GMSACredentialSpec'],
    run(obj, _context, report) {
      const meta = rec(obj, 'metadata');
      const name = own(meta, 'name');
      if (typeof name === 'string' && !isDns1123Subdomain(name)) {
        report({
          path: 'metadata.name',
          messageId: 'name',
          data: { name, value: name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-') },
        });
      }
      if (has(meta, 'namespace')) {
        report({
          path: 'metadata.namespace',
          messageId: 'namespace',
          data: { meta: show(own(meta, 'namespace')) },
          case: 'namespace',
        });
      }
    },
  },
});
