/**
 * aks-windows-cni: Windows pools need Azure CNI
 * (https://learn.microsoft.com/azure/aks/windows-faq). Split out of aks-windows-cluster. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_CLUSTER, AKS_POOL_COMPONENT } from './cloud-resources';
import { AKS_WINDOWS_NETWORK_PLUGIN, isPlainObject } from '../cloud/aks-cluster';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-cni',
    family: 'aks',
    defaultSeverity: 'error',
    summary: "An AKS cluster on kubenet or bring-your-own CNI (networkPlugin 'none') in a stack with Windows pools.",
    rationale: 'AKS adds Windows pools only to clusters on Azure CNI; the network plugin cannot be changed in place.',
    docs: 'https://learn.microsoft.com/azure/aks/windows-faq',
    severityReason: 'AKS refuses the Windows pool.',
  },
  messages: {
    kubenet: {
      description: "networkPlugin 'kubenet', which takes no Windows pools.",
      message: "networkPlugin 'kubenet' does not support Windows pools (Azure/AKS#1005).",
      fix: '{fix}',
    },
    'byo-cni': {
      description: "networkPlugin 'none' (bring your own CNI), which AKS refuses Windows pools on.",
      message:
        "networkPlugin 'none' (bring your own CNI) does not support Windows pools: AKS refuses them with AzureCNIOnlyForWindows (Azure/AKS#2839).",
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_CLUSTER, AKS_POOL_COMPONENT],
    run: {
      'aks-cluster': ({ networkProfile }, _context, report) => {
        if (!isPlainObject(networkProfile)) return;
        const fix = `Create the cluster with networkPlugin '${AKS_WINDOWS_NETWORK_PLUGIN}' (Azure CNI, optionally networkPluginMode 'overlay').`;
        if (networkProfile.networkPlugin === 'kubenet') {
          report({ path: 'networkProfile.networkPlugin', messageId: 'kubenet', data: { fix } });
        } else if (networkProfile.networkPlugin === 'none') {
          // AKS answers `AzureCNIOnlyForWindows`: "Windows agent pools can only be added to AKS clusters using
          // Azure-CNI". https://github.com/Azure/AKS/issues/2839, https://github.com/Azure/AKS/issues/3891 (open)
          report({ path: 'networkProfile.networkPlugin', messageId: 'byo-cni', data: { fix } });
        }
      },
    },
  },
});
