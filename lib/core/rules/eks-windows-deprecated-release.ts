/**
 * eks-windows-deprecated-release: an amiType of a deprecated Windows Server release (Windows Server 2019: out of
 * Microsoft's mainstream support, no longer listed upstream). AWS has announced no retirement of the 2019 EKS AMIs
 * (lib/core/facts/clouds.ts), so this stays a warning. A cloud rule: the policy pack and the components check it on
 * the resources its check lists, in lib/pulumi/eks/node-group-check.ts; this module is its catalogue entry.
 */
import { deprecationSummary, upstreamDroppedReleases } from '../facts/support';
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';

const DEPRECATED = upstreamDroppedReleases();

export default defineRule({
  meta: {
    id: 'eks-windows-deprecated-release',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: `A ${DEPRECATED.map((r) => `Windows Server ${r}`).join(' or ')} amiType.`,
    rationale: `${DEPRECATED.map(deprecationSummary).join('; ')}: images must move to a newer ltsc base.`,
    docs: 'https://kubernetes.io/docs/concepts/windows/intro/#windows-os-version-support',
    severityReason: 'The node group runs today, and AWS has announced no retirement of its AMIs.',
  },
  check: { scope: 'cloud', resources: [EKS_NODE_GROUP] },
});
