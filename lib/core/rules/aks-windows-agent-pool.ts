/**
 * aks-windows-agent-pool: AKS Windows node pools have their own naming, mode and release limits
 * (https://learn.microsoft.com/azure/aks/windows-faq). An alias: it was one id for several conditions, now
 * each its own rule (the ids it covers); a setting or suppression naming it applies to all of them.
 */
import { AKS_AGENT_POOL, AKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-agent-pool',
    family: 'aks',
    defaultSeverity: 'error',
    summary:
      'Alias of aks-windows-release, aks-windows-pool-name, aks-windows-pool-mode, aks-windows-pool-taints and aks-windows-vm-size: a Windows agent pool AKS refuses.',
    rationale:
      'AKS Windows pools have their own limits: a name of at most 6 characters, User mode, a supported osSKU for the Kubernetes version.',
    docs: 'https://learn.microsoft.com/azure/aks/windows-faq',
    severityReason: 'AKS refuses the pool, or its nodes cannot run Windows pods.',
    covers: [
      'aks-windows-release',
      'aks-windows-pool-name',
      'aks-windows-pool-mode',
      'aks-windows-pool-taints',
      'aks-windows-vm-size',
    ],
  },
  check: { scope: 'cloud', resources: [AKS_AGENT_POOL, AKS_POOL_COMPONENT] },
});
