/**
 * aks-windows-agent-pool: AKS Windows node pools have their own naming, mode and release limits
 * (https://learn.microsoft.com/azure/aks/windows-faq). A cloud rule: the policy pack and the components check it on
 * the resources its check lists, in lib/pulumi/aks/agent-pool-checks.ts (checkAksAgentPoolInputs); this module is
 * its catalogue entry.
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-agent-pool',
    family: 'aks',
    defaultSeverity: 'error',
    summary:
      'A Windows agent pool AKS refuses or that breaks Windows scheduling (name, mode, taints, VM size, release).',
    rationale:
      'AKS Windows pools have their own limits: a name of at most 6 characters, User mode, a supported osSKU for the Kubernetes version.',
    docs: 'https://learn.microsoft.com/azure/aks/windows-faq',
    severityReason: 'AKS refuses the pool, or its nodes cannot run Windows pods.',
  },
  check: { scope: 'cloud', resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT] },
});
