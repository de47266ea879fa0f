/**
 * aks-windows-dataplane: Azure CNI Powered by Cilium is Linux only
 * (https://learn.microsoft.com/azure/aks/azure-cni-powered-by-cilium#limitations). Split out of aks-windows-cluster.
 * A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_CLUSTER, AKS_POOL_COMPONENT } from './cloud-resources';
import { isPlainObject } from '../cloud/aks-cluster';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'aks-windows-dataplane',
    family: 'aks',
    defaultSeverity: 'error',
    summary: 'An AKS cluster on the Cilium dataplane (Azure CNI Powered by Cilium) in a stack with Windows pools.',
    rationale: 'Azure CNI Powered by Cilium is available only for Linux, not for Windows pools.',
    docs: 'https://learn.microsoft.com/azure/aks/azure-cni-powered-by-cilium#limitations',
    severityReason: 'AKS refuses the Windows pool.',
  },
  messages: {
    cilium: {
      description: "networkDataplane 'cilium', which is available only for Linux pools.",
      message:
        "networkDataplane 'cilium' (Azure CNI Powered by Cilium) is available only for Linux, not for Windows pools.",
      fix: "Leave networkDataplane unset (the 'azure' dataplane) on a cluster with Windows pools.",
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_CLUSTER, AKS_POOL_COMPONENT],
    run: {
      'aks-cluster': ({ networkProfile }, _context, report) => {
        if (!isPlainObject(networkProfile) || networkProfile.networkDataplane !== 'cilium') return;
        // "Available only for Linux and not for Windows" (Azure CNI Powered by Cilium, limitations).
        report({ path: 'networkProfile.networkDataplane', messageId: 'cilium' });
      },
    },
  },
});
