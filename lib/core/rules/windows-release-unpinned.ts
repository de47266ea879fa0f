/**
 * windows-release-unpinned: AKS picks the Windows release from the Kubernetes version when osSKU is unset
 * (https://learn.microsoft.com/azure/aks/upgrade-windows-os). A cloud rule: the policy pack and the components
 * check it on the resources its check lists, in lib/pulumi/aks/agent-pool-checks.ts,
 * lib/pulumi/gke/node-pool-checks.ts; this module is its catalogue entry.
 */
import { AKS_AGENT_POOL, GKE_NODE_POOL } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-release-unpinned',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary:
      'An AKS or GKE Windows pool that leaves the Windows release to the cloud (no osSKU, no image type release).',
    rationale:
      'The cloud then picks the release from the Kubernetes version, so an upgrade can move nodes to a build the images do not match.',
    docs: 'https://learn.microsoft.com/azure/aks/upgrade-windows-os',
    severityReason: 'The pool runs; an upgrade can break the image match.',
  },
  check: { scope: 'cloud', resources: [AKS_AGENT_POOL, GKE_NODE_POOL] },
});
