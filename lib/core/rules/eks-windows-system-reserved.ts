/**
 * eks-windows-system-reserved: Kubernetes advises reserving at least 2GiB of memory for the Windows OS
 * (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/#resource-reservation). A cloud
 * rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider
 * resources).
 */
import { EKS_SELF_MANAGED_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

/** 2 Gi in bytes: the least memory to reserve for Windows (https://kubernetes.io/docs/concepts/configuration/windows-resource-management/). */
export const MIN_SYSTEM_RESERVED_BYTES = 2 * 1024 ** 3;

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
  messages: {
    'system-reserved': {
      description: 'systemReservedMemory below what Windows needs.',
      message: 'systemReservedMemory {systemReservedMemory} is below the 2Gi Windows needs; pods can starve the OS.',
      fix: "Reserve at least '2Gi'.",
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_SELF_MANAGED_COMPONENT],
    run: {
      'eks-self-managed-component': ({ systemReservedMemory, bytes }, _context, report) => {
        if (bytes >= MIN_SYSTEM_RESERVED_BYTES) return;
        report({ path: '', messageId: 'system-reserved', data: { systemReservedMemory } });
      },
    },
  },
});
