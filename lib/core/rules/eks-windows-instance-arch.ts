/**
 * eks-windows-instance-arch: EKS Windows AMIs exist for x86_64 only (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html). A cloud rule: the policy pack and the k8s-windows
 * components check it on aws:eks/nodeGroup:NodeGroup, k8s-windows:eks:WindowsNodePool, k8s-windows:eks:SelfManagedWindowsNodePool, in lib/pulumi/eks/instance-types.ts; this module is its catalogue entry.
 */
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
    resources: [
      'aws:eks/nodeGroup:NodeGroup',
      'k8s-windows:eks:WindowsNodePool',
      'k8s-windows:eks:SelfManagedWindowsNodePool',
    ],
  },
});
