/**
 * eks-windows-linux-node-group: EKS needs at least one Linux node for CoreDNS and the VPC resource controller
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html). A cloud rule: its check reads a cloud
 * resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { EKS_PREREQUISITES_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-linux-node-group',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: 'Windows cluster prerequisites with no Linux node group declared.',
    rationale:
      'An EKS cluster with only Windows nodes cannot run CoreDNS, the VPC CNI or the controllers Windows pods depend on.',
    docs: 'https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html',
    severityReason: 'Windows nodes join but pods get no DNS or IP until a Linux node exists.',
  },
  messages: {
    'no-linux-group': {
      description: 'No Linux node group declared beside the Windows nodes.',
      message:
        'No Linux node group was declared: an EKS cluster with only Windows nodes cannot run CoreDNS, the VPC CNI or the controllers Windows pods depend on.',
      fix: "Pass linuxNodeGroup (the Linux aws.eks.NodeGroup), or 'existing' when it is managed elsewhere.",
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_PREREQUISITES_COMPONENT],
    run: {
      'eks-prerequisites-component': ({ linuxNodeGroup }, _context, report) => {
        if (linuxNodeGroup !== undefined) return;
        report({ path: '', messageId: 'no-linux-group' });
      },
    },
  },
});
