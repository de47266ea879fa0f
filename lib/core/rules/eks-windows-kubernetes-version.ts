/**
 * eks-windows-kubernetes-version: EKS publishes each Windows AMI for a range of Kubernetes versions (https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-versions-windows.html). A cloud rule: the policy pack and the k8s-windows
 * components check it on aws:eks/nodeGroup:NodeGroup, k8s-windows:eks:WindowsNodePool, in lib/pulumi/eks/node-group-check.ts (checkCloudReleaseForKubernetes); this module is its catalogue entry.
 */
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-kubernetes-version',
    family: 'eks',
    defaultSeverity: 'error',
    summary: "A Windows release EKS does not run on the node group's Kubernetes version.",
    rationale: 'EKS offers each Windows AMI only from a Kubernetes version on (Windows Server 2025 from 1.35).',
    docs: 'https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-versions-windows.html',
    severityReason: 'EKS refuses the node group.',
  },
  check: { scope: 'cloud', resources: ['aws:eks/nodeGroup:NodeGroup', 'k8s-windows:eks:WindowsNodePool'] },
});
