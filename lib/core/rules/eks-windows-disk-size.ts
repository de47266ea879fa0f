/**
 * eks-windows-disk-size: Windows Server needs 32 GB of disk and AWS Windows AMI snapshots are 30 GiB
 * (https://learn.microsoft.com/windows-server/get-started/hardware-requirements). A cloud rule: the policy pack and
 * the components check it on the resources its check lists, in lib/pulumi/eks/node-group-check.ts; this module is
 * its catalogue entry.
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'eks-windows-disk-size',
    family: 'eks',
    defaultSeverity: 'error',
    summary: "A root disk smaller than the Windows AMI's snapshot (30 GiB).",
    rationale: 'The Windows AMI root snapshot is 30 GiB; a smaller disk cannot be created.',
    docs: 'https://learn.microsoft.com/windows-server/get-started/hardware-requirements',
    severityReason: 'No node can start.',
  },
  check: { scope: 'cloud', resources: [EKS_NODE_GROUP] },
});
