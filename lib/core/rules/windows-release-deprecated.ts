/**
 * windows-release-deprecated: a pool of a release whose support is computed as deprecated at the evaluation date
 * (upstream Kubernetes no longer lists it, or Microsoft's extended support has ended: lib/core/facts/support.ts).
 * A cloud that has retired the release refuses it instead (the cloud's gate rule). A cloud rule: the policy pack
 * and the components check it on the resources its check lists, in lib/pulumi/node-pool.ts
 * (releaseSupportWarnings); this module is its catalogue entry.
 */
import { deprecationSummary, upstreamDroppedReleases } from '../facts/support';
import { WINDOWS_NODE_POOLS } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-release-deprecated',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary: `A Windows node pool on a deprecated release (${upstreamDroppedReleases()
      .map((r) => `Windows Server ${r}`)
      .join(', ')}).`,
    rationale: `${upstreamDroppedReleases().map(deprecationSummary).join('; ')}; images must be rebuilt for the next release.`,
    docs: 'https://kubernetes.io/docs/concepts/windows/intro/#windows-os-version-support',
    severityReason: 'The pool runs today; where a cloud has retired the release, its gate refuses the pool instead.',
  },
  check: {
    scope: 'cloud',
    resources: WINDOWS_NODE_POOLS,
  },
});
