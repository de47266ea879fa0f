/**
 * eks-windows-instance-memory: Windows Server needs memory of its own before pods
 * (https://learn.microsoft.com/windows-server/get-started/hardware-requirements). A cloud rule: the policy pack and
 * the components check it on the resources its check lists, in lib/pulumi/eks/pool-args.ts (checkPoolInstanceType);
 * this module is its catalogue entry.
 */
import { EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-instance-memory',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: 'An instance type with less memory than a Windows node needs (8 GiB).',
    rationale: 'Windows Server uses about 3.5 GB idle, leaving little for pods.',
    docs: 'https://learn.microsoft.com/windows-server/get-started/hardware-requirements',
    severityReason: 'Nodes run, with little room for pods.',
  },
  check: {
    scope: 'cloud',
    resources: [EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT],
  },
});
