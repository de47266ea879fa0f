/**
 * gke-windows-autopilot: Windows node pools need a Standard cluster
 * (https://cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke). Split out of gke-windows-cluster. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { GKE_CLUSTER, GKE_POOL_COMPONENT } from './cloud-resources';
import type { ValidationIssue } from '../errors';
import { defineRule } from './rule';

function autopilotIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'GKE Autopilot clusters do not run Windows Server nodes.',
    fix: 'Use a Standard cluster (enableAutopilot unset) for Windows node pools.',
  };
}

export default defineRule({
  meta: {
    id: 'gke-windows-autopilot',
    family: 'gke',
    defaultSeverity: 'error',
    summary: 'A GKE Autopilot cluster in a stack with Windows node pools.',
    rationale: 'Autopilot clusters do not run Windows Server nodes.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke',
    severityReason: 'GKE refuses the Windows pool.',
  },
  messages: {
    autopilot: {
      description: 'An Autopilot cluster, which takes no Windows node pools.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [GKE_CLUSTER, GKE_POOL_COMPONENT],
    run: {
      'gke-cluster': ({ enableAutopilot }, _context, report) => {
        if (enableAutopilot !== true) return;
        const i = autopilotIssue('enableAutopilot');
        report({ path: i.path, messageId: 'autopilot', data: { message: i.message, fix: i.fix } });
      },
      // What a pool component's args state about its cluster.
      'gke-cluster-info-component': ({ autopilot }, _context, report) => {
        if (autopilot !== true) return;
        const i = autopilotIssue('autopilot');
        report({ path: i.path, messageId: 'autopilot', data: { message: i.message, fix: i.fix } });
      },
    },
  },
});
