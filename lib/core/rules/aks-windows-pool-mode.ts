/**
 * aks-windows-pool-mode: System pools host Linux-only system pods
 * (https://learn.microsoft.com/azure/aks/use-system-pools). Split out of aks-windows-agent-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT } from './cloud-resources';
import { checkAksPoolMode, isWindowsAgentPool } from '../cloud/aks-agent-pool';
import { isKnown } from '../cloud/node-pools';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-pool-mode',
    family: 'aks',
    defaultSeverity: 'error',
    summary: 'A Windows agent pool in System mode.',
    rationale: 'System pools run CoreDNS and other Linux-only system pods; AKS refuses a Windows System pool.',
    docs: 'https://learn.microsoft.com/azure/aks/use-system-pools',
    severityReason: 'AKS refuses the pool.',
  },
  messages: {
    mode: {
      description: 'A Windows agent pool mode other than User (System pools run Linux-only system pods).',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT],
    run: {
      'aks-agent-pool': (props, _context, report) => {
        if (!isWindowsAgentPool(props) || !isKnown(props.mode)) return;
        for (const i of checkAksPoolMode(props.mode, 'mode'))
          report({ path: i.path, messageId: 'mode', data: { message: i.message, fix: i.fix } });
      },
      'aks-pool-component': ({ mode }, _context, report) => {
        for (const i of checkAksPoolMode(mode, 'mode'))
          report({ path: i.path, messageId: 'mode', data: { message: i.message, fix: i.fix } });
      },
    },
  },
});
