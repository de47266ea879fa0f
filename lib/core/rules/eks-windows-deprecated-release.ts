/**
 * eks-windows-deprecated-release: AWS is retiring its Windows Server 2019 EKS AMIs
 * (https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html#AmazonEKS-Type-Nodegroup-amiType). A
 * cloud rule: the policy pack and the components check it on the resources its check lists, in
 * lib/pulumi/eks/node-group-check.ts; this module is its catalogue entry.
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-deprecated-release',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: 'A Windows Server 2019 amiType.',
    rationale: 'Windows Server 2019 is deprecated for Kubernetes nodes; images must move to ltsc2022.',
    docs: 'https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html#AmazonEKS-Type-Nodegroup-amiType',
    severityReason: 'The node group runs today; it has a deadline.',
  },
  check: { scope: 'cloud', resources: [EKS_NODE_GROUP] },
});
