/**
 * gke-windows-vpc-native: Windows node pools need alias IPs
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). Split out of gke-windows-cluster. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { GKE_CLUSTER, GKE_POOL_COMPONENT } from './cloud-resources';
import type { ValidationIssue } from '../errors';
import { defineRule } from './rule';

function routesIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'Windows node pools need a VPC-native cluster (alias IPs); this cluster is routes-based.',
    fix: "Create the cluster with networkingMode 'VPC_NATIVE' (the default for new clusters) and an ipAllocationPolicy.",
  };
}

export default defineRule({
  meta: {
    id: 'gke-windows-vpc-native',
    family: 'gke',
    defaultSeverity: 'error',
    summary: 'A routes-based GKE cluster in a stack with Windows node pools.',
    rationale: 'Windows node pools need a VPC-native cluster (alias IPs).',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows',
    severityReason: 'GKE refuses the Windows pool.',
  },
  messages: {
    routes: {
      description: 'A routes-based (not VPC-native) cluster, which takes no Windows node pools.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [GKE_CLUSTER, GKE_POOL_COMPONENT],
    run: {
      'gke-cluster': ({ networkingMode }, _context, report) => {
        if (networkingMode !== 'ROUTES') return;
        const i = routesIssue('networkingMode');
        report({ path: i.path, messageId: 'routes', data: { message: i.message, fix: i.fix } });
      },
      'gke-cluster-info-component': ({ vpcNative }, _context, report) => {
        if (vpcNative !== false) return;
        const i = routesIssue('vpcNative');
        report({ path: i.path, messageId: 'routes', data: { message: i.message, fix: i.fix } });
      },
    },
  },
});
