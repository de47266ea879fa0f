/**
 * eks-windows-instance-memory: Windows Server needs memory of its own before pods
 * (https://learn.microsoft.com/windows-server/get-started/hardware-requirements). A cloud rule: its check reads a
 * cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';
import { DEFAULT_WINDOWS_INSTANCE_TYPE, isBelowWindowsMemoryFloor } from '../cloud/eks-instance-types';

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
  messages: {
    memory: {
      description: 'An instance type with less memory than a Windows node needs.',
      message:
        "Instance type '{instanceType}' has less than the 8 GiB a Windows node needs; Windows Server takes about 3.5 GB at idle.",
      fix: "Use at least 8 GiB, 16 GiB for production (e.g. '{DEFAULT_WINDOWS_INSTANCE_TYPE}').",
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT],
    run: {
      'eks-instance-type-component': ({ instanceType }, _context, report) => {
        if (!isBelowWindowsMemoryFloor(instanceType)) return;
        report({ path: '', messageId: 'memory', data: { instanceType, DEFAULT_WINDOWS_INSTANCE_TYPE } });
      },
    },
  },
});
