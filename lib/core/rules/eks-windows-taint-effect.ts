/**
 * eks-windows-taint-effect: the EKS API spells taint effects in upper case
 * (https://docs.aws.amazon.com/eks/latest/APIReference/API_Taint.html). A cloud rule: the policy pack and the
 * components check it on the resources its check lists, in lib/pulumi/eks/node-group-check.ts; this module is its
 * catalogue entry.
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-taint-effect',
    family: 'eks',
    defaultSeverity: 'error',
    summary: 'A node group taint effect in the Kubernetes spelling (NoSchedule) where EKS wants NO_SCHEDULE.',
    rationale: 'The EKS API spells taint effects NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE and refuses others.',
    docs: 'https://docs.aws.amazon.com/eks/latest/APIReference/API_Taint.html',
    severityReason: 'EKS refuses the node group.',
  },
  check: { scope: 'cloud', resources: [EKS_NODE_GROUP] },
});
