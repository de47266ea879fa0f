/**
 * eks-windows-taint: EKS Windows nodes carry only the taints the node group gives them
 * (https://aws.github.io/aws-eks-best-practices/windows/docs/scheduling/). A cloud rule: the policy pack and the
 * components check it on the resources its check lists, in lib/pulumi/eks/node-group-check.ts; this module is its
 * catalogue entry.
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-taint',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: 'A Windows node group without the os=windows NO_SCHEDULE taint.',
    rationale: 'EKS does not taint Windows nodes; without the taint Linux pods without a selector land on them.',
    docs: 'https://aws.github.io/aws-eks-best-practices/windows/docs/scheduling/',
    severityReason: 'Only Linux pods without an OS selector are hurt.',
  },
  check: { scope: 'cloud', resources: [EKS_NODE_GROUP] },
});
