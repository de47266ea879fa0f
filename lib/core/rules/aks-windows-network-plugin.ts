/**
 * aks-windows-network-plugin: kubenet does not support Windows node pools
 * (https://learn.microsoft.com/azure/aks/concepts-network). A cloud rule: its check reads a cloud resource's
 * inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_CLUSTER, AKS_POOL_COMPONENT } from './cloud-resources';
import { defineRule } from './rule';
import { AKS_WINDOWS_NETWORK_PLUGIN, isPlainObject } from '../cloud/aks-cluster';

export default defineRule({
  meta: {
    id: 'aks-windows-network-plugin',
    family: 'aks',
    defaultSeverity: 'warning',
    summary: 'An AKS cluster with Windows pools that leaves networkPlugin to the default.',
    rationale: "AKS's default network plugin depends on the API version, and kubenet refuses Windows pools.",
    docs: 'https://learn.microsoft.com/azure/aks/concepts-network',
    severityReason: 'Works where the default is Azure CNI.',
  },
  messages: {
    'plugin-unset': {
      description: "A cluster whose networkPlugin is left to AKS's default.",
      message: "networkPlugin is not set: AKS's default depends on the API version, and kubenet refuses Windows pools.",
      fix: "Set networkPlugin '{AKS_WINDOWS_NETWORK_PLUGIN}'.",
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_CLUSTER, AKS_POOL_COMPONENT],
    run: {
      'aks-cluster': ({ networkProfile }, _context, report) => {
        const plugin = isPlainObject(networkProfile)
          ? networkProfile.networkPlugin
          : networkProfile === undefined
            ? undefined
            : null;
        if (plugin !== undefined) return;
        report({
          path: 'networkProfile.networkPlugin',
          messageId: 'plugin-unset',
          data: { AKS_WINDOWS_NETWORK_PLUGIN },
        });
      },
    },
  },
});
