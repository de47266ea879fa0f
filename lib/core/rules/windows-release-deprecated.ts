/**
 * windows-release-deprecated: Windows Server 2019 leaves mainstream support and the clouds retire its node images
 * (https://kubernetes.io/docs/concepts/windows/intro/#windows-os-version-support). A cloud rule: the policy pack
 * and the components check it on the resources its check lists, in lib/pulumi/node-pool.ts
 * (releaseSupportWarnings); this module is its catalogue entry.
 */
import { WINDOWS_NODE_POOLS } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-release-deprecated',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary: 'A Windows node pool on a deprecated release (Windows Server 2019).',
    rationale:
      'Clouds and upstream Kubernetes are retiring Windows Server 2019 nodes; images must be rebuilt for the next release.',
    docs: 'https://kubernetes.io/docs/concepts/windows/intro/#windows-os-version-support',
    severityReason: 'The pool runs today; it has a deadline.',
  },
  check: {
    scope: 'cloud',
    resources: WINDOWS_NODE_POOLS,
  },
});
