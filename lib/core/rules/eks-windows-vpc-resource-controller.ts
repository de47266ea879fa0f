/**
 * eks-windows-vpc-resource-controller: Windows pods get IPs from the VPC resource controller, which needs the
 * AmazonEKSVPCResourceController policy
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support). A cloud rule: its
 * check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { EKS_CLUSTER, EKS_NODE_GROUP, IAM_ROLE } from './cloud-resources';
import { defineRule } from './rule';
import { attachesVpcResourceController, declaresEksWindowsNodes } from '../cloud/eks-stack';

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
  messages: {
    'no-policy': {
      description: 'A stack with EKS Windows nodes and no AmazonEKSVPCResourceController policy on a role.',
      message:
        'The stack runs Windows nodes on EKS, but no AmazonEKSVPCResourceController policy is attached to a role in it: without it on the cluster role, Windows pods get no IP address.',
      fix: 'Attach arn:aws:iam::aws:policy/AmazonEKSVPCResourceController to the cluster role (WindowsClusterPrerequisites does).',
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_CLUSTER, IAM_ROLE, EKS_NODE_GROUP],
    run: {
      'eks-stack': ({ resources }, _context, report) => {
        if (!declaresEksWindowsNodes(resources)) return;
        const controller = resources.map(attachesVpcResourceController);
        if (controller.includes('yes') || controller.includes('unknown')) return;
        report({ path: 'roleArn', messageId: 'no-policy' });
      },
    },
  },
});
