/**
 * aks-windows-vm-size: Windows Server nodes need x86_64 VM sizes
 * (https://learn.microsoft.com/azure/virtual-machines/vm-naming-conventions). Split out of aks-windows-agent-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT } from './cloud-resources';
import { checkAksVmSize, isWindowsAgentPool } from '../cloud/aks-agent-pool';
import { isKnown } from '../cloud/node-pools';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-vm-size',
    family: 'aks',
    defaultSeverity: 'error',
    summary: 'A VM size for a Windows agent pool that is not an Azure VM size name, or an Arm-based one.',
    rationale: 'Windows Server nodes need x86_64; Arm sizes have a p in their features.',
    docs: 'https://learn.microsoft.com/azure/virtual-machines/vm-naming-conventions',
    severityReason: 'No node can start.',
  },
  messages: {
    'vm-size': {
      description: 'A VM size that is not an Azure VM size name, or an Arm-based one Windows nodes cannot run on.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT],
    run: {
      'aks-agent-pool': (props, _context, report) => {
        if (!isWindowsAgentPool(props) || !isKnown(props.vmSize)) return;
        for (const i of checkAksVmSize(props.vmSize, 'vmSize'))
          report({ path: i.path, messageId: 'vm-size', data: { message: i.message, fix: i.fix } });
      },
      'aks-pool-component': ({ vmSize }, _context, report) => {
        for (const i of checkAksVmSize(vmSize, 'vmSize'))
          report({ path: i.path, messageId: 'vm-size', data: { message: i.message, fix: i.fix } });
      },
    },
  },
});
