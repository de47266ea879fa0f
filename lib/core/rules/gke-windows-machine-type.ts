/**
 * gke-windows-machine-type: Windows Server nodes need x86_64 machine types
 * (https://cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke). Split out of gke-windows-node-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { GKE_NODE_POOL, GKE_POOL_COMPONENT } from './cloud-resources';
import { checkGkeMachineType, windowsNodeConfig } from '../cloud/gke-node-pool';
import { isKnown } from '../cloud/node-pools';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gke-windows-machine-type',
    family: 'gke',
    defaultSeverity: 'error',
    summary: 'A machine type for a GKE Windows node pool that is not a name, or in an Arm family (T2A, C4A, N4A).',
    rationale: 'Windows Server nodes need x86_64.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke',
    severityReason: 'No node can start.',
  },
  messages: {
    'machine-type': {
      description: 'A machine type that is not a machine type name, or an Arm family Windows nodes cannot run on.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [GKE_NODE_POOL, GKE_POOL_COMPONENT],
    run: {
      'gke-node-pool': (props, _context, report) => {
        const machineType = windowsNodeConfig(props)?.machineType;
        if (!isKnown(machineType)) return;
        for (const i of checkGkeMachineType(machineType, 'nodeConfig.machineType')) {
          report({ path: i.path, messageId: 'machine-type', data: { message: i.message, fix: i.fix } });
        }
      },
      'gke-pool-component': ({ machineType }, _context, report) => {
        if (machineType === undefined) return;
        for (const i of checkGkeMachineType(machineType, 'machineType')) {
          report({ path: i.path, messageId: 'machine-type', data: { message: i.message, fix: i.fix } });
        }
      },
    },
  },
});
