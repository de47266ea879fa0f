/**
 * eks-windows-instance-arch: EKS Windows AMIs exist for x86_64 only
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html). A cloud rule: the policy pack and the
 * components check it on the resources its check lists, in lib/pulumi/eks/instance-types.ts; this module is its
 * catalogue entry.
 */
import { EKS_NODE_GROUP, EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-instance-arch',
    family: 'eks',
    defaultSeverity: 'error',
    summary: 'A Graviton (arm64) or Mac instance type for a Windows node group.',
    rationale: 'EKS Windows AMIs are x86_64 only.',
    docs: 'https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html',
    severityReason: 'No node can start.',
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP, EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT],
  },
});
