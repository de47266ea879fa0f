/**
 * gke-windows-taint-effect: GKE spells taint effects NO_SCHEDULE
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/node-taints). Split out of gke-windows-node-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { GKE_NODE_POOL, GKE_POOL_COMPONENT } from './cloud-resources';
import { checkGkeTaints, windowsNodeConfig } from '../cloud/gke-node-pool';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gke-windows-taint-effect',
    family: 'gke',
    defaultSeverity: 'error',
    summary:
      'A taint effect on a GKE Windows node pool in the Kubernetes spelling (NoSchedule) or no effect GKE knows.',
    rationale: 'GKE node pools take taint effects as NO_SCHEDULE, PREFER_NO_SCHEDULE or NO_EXECUTE.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/how-to/node-taints',
    severityReason: 'GKE refuses the pool.',
  },
  messages: {
    'effect-spelling': {
      description: 'A taint effect not in the GKE spelling (NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE).',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [GKE_NODE_POOL, GKE_POOL_COMPONENT],
    run: {
      'gke-node-pool': (props, _context, report) => {
        const nodeConfig = windowsNodeConfig(props);
        if (nodeConfig === undefined) return;
        for (const i of checkGkeTaints(nodeConfig.taints, 'nodeConfig.taints').issues) {
          report({ path: i.path, messageId: 'effect-spelling', data: { message: i.message, fix: i.fix } });
        }
      },
    },
  },
});
