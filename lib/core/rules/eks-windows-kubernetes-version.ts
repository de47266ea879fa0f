/**
 * eks-windows-kubernetes-version: EKS publishes each Windows AMI for a range of Kubernetes versions
 * (https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-versions-windows.html). A cloud rule: the policy pack
 * and the components check it on the resources its check lists, in lib/pulumi/eks/node-group-check.ts
 * (checkCloudReleaseForKubernetes); this module is its catalogue entry.
 */
import { EKS_NODE_GROUP, EKS_POOL_COMPONENT } from './cloud-resources';
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
  check: { scope: 'cloud', resources: [EKS_NODE_GROUP, EKS_POOL_COMPONENT] },
});
