/**
 * eks-windows-disk-size: Windows Server needs 32 GB of disk and AWS Windows AMI snapshots are 30 GiB
 * (https://learn.microsoft.com/windows-server/get-started/hardware-requirements). A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';
import { MIN_WINDOWS_DISK_SIZE_GIB, windowsNodeGroup } from '../cloud/eks-node-group';

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
  messages: {
    'disk-size': {
      description: 'A Windows node group disk below what Windows Server needs.',
      message: 'diskSize {diskSize} GiB is below the {MIN_WINDOWS_DISK_SIZE_GIB} GiB Windows Server needs.',
      fix: 'Use 50 GiB or more (the EKS default for Windows); Windows images are several GB each.',
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP],
    run: {
      'eks-node-group': ({ amiType, diskSize }, _context, report) => {
        if (windowsNodeGroup({ amiType }) === undefined) return;
        if (typeof diskSize !== 'number' || diskSize >= MIN_WINDOWS_DISK_SIZE_GIB) return;
        report({ path: 'diskSize', messageId: 'disk-size', data: { diskSize, MIN_WINDOWS_DISK_SIZE_GIB } });
      },
    },
  },
});
