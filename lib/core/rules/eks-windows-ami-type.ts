/**
 * eks-windows-ami-type: EKS accepts only its listed AMI types
 * (https://docs.aws.amazon.com/eks/latest/APIReference/API_Nodegroup.html#AmazonEKS-Type-Nodegroup-amiType). A
 * cloud rule: its check reads the resource's inputs (`runCloudRules` runs it for the policy pack and the
 * components).
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';
import { explainEksWindowsAmiType, looksLikeEksWindowsAmiType } from '../cloud/eks-ami-types';

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
  messages: {
    'ami-type': {
      description:
        'A Windows amiType EKS does not offer (a Semi-Annual Channel release, a misspelling, an unknown name).',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP],
    run: {
      'eks-node-group': ({ amiType }, _context, report) => {
        if (!looksLikeEksWindowsAmiType(amiType)) return;
        const explained = explainEksWindowsAmiType(String(amiType));
        if (explained)
          report({ path: 'amiType', messageId: 'ami-type', data: { message: explained.message, fix: explained.fix } });
      },
    },
  },
});
