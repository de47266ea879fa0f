/**
 * eks-windows-ipam: Windows pods get IPs only with enable-windows-ipam set
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support). A cloud rule: the
 * policy pack and the components check it on the resources its check lists, in lib/pulumi/eks/cluster-checks.ts;
 * this module is its catalogue entry.
 */
import { CONFIG_MAP, EKS_ADDON, EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-ipam',
    family: 'eks',
    defaultSeverity: 'warning',
    summary:
      'A stack with EKS Windows nodes that does not switch on Windows IPAM (amazon-vpc-cni ConfigMap or VPC CNI add-on).',
    rationale: 'Without enable-windows-ipam Windows pods get no IP and stay ContainerCreating.',
    docs: 'https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#enable-windows-support',
    severityReason: 'The setting may be made outside the stack.',
  },
  check: {
    scope: 'cloud',
    resources: [EKS_ADDON, CONFIG_MAP, EKS_NODE_GROUP],
  },
});
