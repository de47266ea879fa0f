/**
 * eks-windows-vpc-resource-controller: Windows pods get IPs from the VPC resource controller, which needs the
 * AmazonEKSVPCResourceController policy
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support). A cloud rule: the
 * policy pack and the components check it on the resources its check lists, in lib/pulumi/eks/cluster-checks.ts;
 * this module is its catalogue entry.
 */
import { EKS_CLUSTER, EKS_NODE_GROUP, IAM_ROLE } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-vpc-resource-controller',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: 'A stack with EKS Windows nodes whose cluster role lacks the AmazonEKSVPCResourceController policy.',
    rationale: 'The VPC resource controller gives Windows pods their IPs; it acts with the cluster role.',
    docs: 'https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support',
    severityReason: 'The policy may be attached outside the stack.',
  },
  check: { scope: 'cloud', resources: [EKS_CLUSTER, IAM_ROLE, EKS_NODE_GROUP] },
});
