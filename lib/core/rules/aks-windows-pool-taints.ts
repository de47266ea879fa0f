/**
 * aks-windows-pool-taints: AKS takes node taints as 'key=value:Effect' strings
 * (https://learn.microsoft.com/azure/aks/use-node-taints). Split out of aks-windows-agent-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT } from './cloud-resources';
import { AKS_WINDOWS_TAINT, isWindowsAgentPool, parseTaintString } from '../cloud/aks-agent-pool';
import { isKnown } from '../cloud/node-pools';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-pool-taints',
    family: 'aks',
    defaultSeverity: 'error',
    summary: "A Windows agent pool nodeTaints entry AKS refuses (not 'key=value:Effect', an EKS/GKE effect spelling).",
    rationale: "AKS takes taints as 'key=value:Effect' strings with the Kubernetes effect spelling.",
    docs: 'https://learn.microsoft.com/azure/aks/use-node-taints',
    severityReason: 'AKS refuses the pool.',
  },
  messages: {
    'taint-format': {
      description: "A nodeTaints entry that is not a 'key=value:Effect' string with the Kubernetes effect spelling.",
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT],
    run: {
      'aks-agent-pool': (props, _context, report) => {
        if (!isWindowsAgentPool(props) || !Array.isArray(props.nodeTaints)) return;
        (props.nodeTaints as unknown[]).forEach((t, i) => {
          if (!isKnown(t)) return;
          const result = typeof t === 'string' ? parseTaintString(t) : undefined;
          if (result?.ok) return;
          if (result)
            report({
              path: `nodeTaints[${i}]`,
              messageId: 'taint-format',
              data: { message: result.message, fix: result.fix },
            });
          else
            report({
              path: `nodeTaints[${i}]`,
              messageId: 'taint-format',
              data: { message: `Taint ${JSON.stringify(t)} is not a string.`, fix: `Write '${AKS_WINDOWS_TAINT}'.` },
            });
        });
      },
    },
  },
});
