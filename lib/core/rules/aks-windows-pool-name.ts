/**
 * aks-windows-pool-name: AKS builds the Windows computer name from the pool name
 * (https://learn.microsoft.com/azure/aks/create-node-pools#limitations). Split out of aks-windows-agent-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT } from './cloud-resources';
import { checkAksPoolName, isWindowsAgentPool } from '../cloud/aks-agent-pool';
import { isKnown } from '../cloud/node-pools';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-pool-name',
    family: 'aks',
    defaultSeverity: 'error',
    summary: 'A Windows agent pool name AKS refuses (more than 6 characters, not lowercase letters and digits).',
    rationale:
      'The Windows computer name is built from the pool name: 1–6 lowercase letters or digits, starting with a letter.',
    docs: 'https://learn.microsoft.com/azure/aks/create-node-pools#limitations',
    severityReason: 'AKS refuses the pool.',
  },
  messages: {
    'pool-name': {
      description:
        'A Windows agent pool name AKS refuses (not 1-6 lowercase letters or digits starting with a letter).',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT],
    run: {
      'aks-agent-pool': (props, _context, report) => {
        if (!isWindowsAgentPool(props) || !isKnown(props.agentPoolName)) return;
        for (const i of checkAksPoolName(props.agentPoolName, 'agentPoolName')) {
          report({ path: i.path, messageId: 'pool-name', data: { message: i.message, fix: i.fix } });
        }
      },
      // The component's resolved name (its own name when agentPoolName is not given).
      'aks-pool-component': ({ agentPoolName }, _context, report) => {
        if (agentPoolName === undefined) return;
        for (const i of checkAksPoolName(agentPoolName, 'agentPoolName')) {
          report({ path: i.path, messageId: 'pool-name', data: { message: i.message, fix: i.fix } });
        }
      },
    },
  },
});
