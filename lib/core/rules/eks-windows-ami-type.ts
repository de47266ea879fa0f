/**
 * eks-windows-ami-type: EKS accepts only its listed AMI types
 * (https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html#AmazonEKS-Type-Nodegroup-amiType). A
 * cloud rule: the policy pack and the components check it on the resources its check lists, in
 * lib/pulumi/eks/node-group-check.ts; this module is its catalogue entry.
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-ami-type',
    family: 'eks',
    defaultSeverity: 'error',
    summary: 'An amiType that looks like Windows but is not one EKS knows.',
    rationale: 'EKS refuses a node group with an unknown amiType.',
    docs: 'https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html#AmazonEKS-Type-Nodegroup-amiType',
    severityReason: 'EKS refuses the node group.',
  },
  check: { scope: 'cloud', resources: [EKS_NODE_GROUP] },
});
