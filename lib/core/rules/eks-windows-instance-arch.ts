/**
 * eks-windows-instance-arch: EKS Windows AMIs exist for x86_64 only
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html). A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { EKS_NODE_GROUP, EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';
import { windowsNodeGroup } from '../cloud/eks-node-group';
import { checkWindowsInstanceType, checkWindowsInstanceTypes } from '../cloud/eks-instance-types';

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
  messages: {
    'no-windows': {
      description:
        'Instance types Windows cannot run on (an empty or malformed list, not an instance type, Graviton, Mac, or a family EC2 offers no Windows on).',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP, EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT],
    run: {
      'eks-node-group': ({ amiType, instanceTypes }, _context, report) => {
        if (windowsNodeGroup({ amiType }) === undefined || !Array.isArray(instanceTypes)) return;
        const types = (instanceTypes as unknown[]).filter((t) => t !== undefined);
        for (const i of checkWindowsInstanceTypes(types, 'instanceTypes')) {
          report({ path: i.path, messageId: 'no-windows', data: { message: i.message, fix: i.fix } });
        }
      },
      // A component's instance type: the component refuses the errors at the arg's path and warns pool-wide.
      'eks-instance-type-component': ({ instanceType }, _context, report) => {
        for (const i of checkWindowsInstanceType(instanceType, '')) {
          report({ path: i.path, messageId: 'no-windows', data: { message: i.message, fix: i.fix } });
        }
      },
    },
  },
});
