/**
 * gke-windows-linux-pool: GKE runs system pods on Linux nodes
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). Split out of gke-windows-cluster. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { GKE_CLUSTER, GKE_POOL_COMPONENT } from './cloud-resources';
import { linuxPoolKnownAbsent } from '../cloud/gke-cluster';
import type { ValidationIssue } from '../errors';
import { defineRule } from './rule';

function noLinuxPoolIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'GKE needs at least one Linux node pool beside Windows pools (system pods such as kube-dns run on Linux).',
    fix: 'Keep the default node pool or add a Linux NodePool (e.g. imageType COS_CONTAINERD).',
  };
}

export default defineRule({
  meta: {
    id: 'gke-windows-linux-pool',
    family: 'gke',
    defaultSeverity: 'error',
    summary: 'A GKE cluster whose own node pools are all Windows.',
    rationale: 'System pods such as kube-dns run on Linux: GKE needs a Linux pool beside Windows pools.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows',
    severityReason: 'GKE refuses the cluster, or system pods cannot run.',
  },
  messages: {
    'no-linux-pool': {
      description: 'A cluster known to have no Linux node pool beside its Windows pools.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [GKE_CLUSTER, GKE_POOL_COMPONENT],
    run: {
      'gke-cluster': (props, _context, report) => {
        if (props.enableAutopilot === true || !linuxPoolKnownAbsent(props)) return;
        const i = noLinuxPoolIssue('nodePools');
        report({ path: i.path, messageId: 'no-linux-pool', data: { message: i.message, fix: i.fix } });
      },
      'gke-cluster-info-component': ({ hasLinuxNodePool }, _context, report) => {
        if (hasLinuxNodePool !== false) return;
        const i = noLinuxPoolIssue('hasLinuxNodePool');
        report({ path: i.path, messageId: 'no-linux-pool', data: { message: i.message, fix: i.fix } });
      },
    },
  },
});
