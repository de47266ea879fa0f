/**
 * windows-node-memory: Windows Server needs memory of its own before pods
 * (https://learn.microsoft.com/windows-server/get-started/hardware-requirements). A cloud rule: its check reads a
 * cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT, GKE_NODE_POOL, GKE_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';
import { aksVmSizeWarnings, isWindowsAgentPool } from '../cloud/aks-agent-pool';
import { gkeMachineTypeWarnings, windowsNodeConfig } from '../cloud/gke-node-pool';

export default defineRule({
  meta: {
    id: 'windows-node-memory',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary: 'A Windows node size with less memory than a Windows node needs (8 GiB).',
    rationale: 'Windows Server uses about 3.5 GB idle, leaving little for pods on small nodes.',
    docs: 'https://learn.microsoft.com/windows-server/get-started/hardware-requirements',
    severityReason: 'Nodes run, with little room for pods.',
  },
  messages: {
    memory: {
      description: 'A node size with less memory than a Windows node needs.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, GKE_NODE_POOL, AKS_POOL_COMPONENT, GKE_POOL_COMPONENT],
    run: {
      'aks-pool-component': ({ vmSize }, _context, report) => {
        for (const w of aksVmSizeWarnings(vmSize, 'vmSize'))
          report({ path: w.path, messageId: 'memory', data: { message: w.message, fix: w.fix } });
      },
      'gke-pool-component': ({ machineType }, _context, report) => {
        for (const w of gkeMachineTypeWarnings(machineType, 'machineType')) {
          report({ path: w.path, messageId: 'memory', data: { message: w.message, fix: w.fix } });
        }
      },
      'aks-agent-pool': ({ osType, vmSize }, _context, report) => {
        if (!isWindowsAgentPool({ osType })) return;
        for (const w of aksVmSizeWarnings(vmSize, 'vmSize'))
          report({ path: w.path, messageId: 'memory', data: { message: w.message, fix: w.fix } });
      },
      'gke-node-pool': (props, _context, report) => {
        const nodeConfig = windowsNodeConfig(props);
        if (nodeConfig === undefined) return;
        for (const w of gkeMachineTypeWarnings(nodeConfig.machineType, 'nodeConfig.machineType')) {
          report({ path: w.path, messageId: 'memory', data: { message: w.message, fix: w.fix } });
        }
      },
    },
  },
});
