/**
 * eks-windows-system-reserved: Kubernetes advises reserving at least 2GiB of memory for the Windows OS
 * (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/#resource-reservation). A cloud
 * rule: the policy pack and the components check it on the resources its check lists, in
 * lib/pulumi/eks/self-managed-node-pool.ts; this module is its catalogue entry.
 */
import { EKS_SELF_MANAGED_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-system-reserved',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: 'Less system-reserved memory than Windows needs (2Gi) on a self-managed node group.',
    rationale: 'Without enough reserved memory pods can starve the Windows OS and its services.',
    docs: 'https://kubernetes.io/docs/concepts/configuration/windows-resource-management/#resource-reservation',
    severityReason: 'Nodes run, until pods starve the OS.',
  },
  check: { scope: 'cloud', resources: [EKS_SELF_MANAGED_COMPONENT] },
});
