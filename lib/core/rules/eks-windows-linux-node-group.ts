/**
 * eks-windows-linux-node-group: EKS needs at least one Linux node for CoreDNS and the VPC resource controller
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html). A cloud rule: the policy pack and the
 * components check it on the resources its check lists, in lib/pulumi/eks/cluster-prerequisites.ts; this module is
 * its catalogue entry.
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
  check: { scope: 'cloud', resources: [EKS_PREREQUISITES_COMPONENT] },
});
