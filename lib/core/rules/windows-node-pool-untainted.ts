/**
 * windows-node-pool-untainted: Kubernetes keeps Linux pods off Windows nodes only by taint or by their own selector
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#taints-and-tolerations). A cloud rule: the policy pack
 * and the components check it on the resources its check lists, in lib/pulumi/node-pool.ts (nodePoolWarnings),
 * lib/pulumi/aks/agent-pool-checks.ts, lib/pulumi/gke/node-pool-checks.ts; this module is its catalogue entry.
 */
import { WINDOWS_NODE_POOLS } from './cloud-resources';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-node-pool-untainted',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary: 'A Windows node pool without a NoSchedule or NoExecute taint.',
    rationale:
      'Linux pods that do not select kubernetes.io/os land on an untainted Windows node and fail to pull their images.',
    docs: 'https://kubernetes.io/docs/concepts/windows/user-guide/#taints-and-tolerations',
    severityReason: 'Only Linux pods without an OS selector are hurt; they sit in ImagePullBackOff.',
  },
  check: {
    scope: 'cloud',
    resources: WINDOWS_NODE_POOLS,
  },
});
