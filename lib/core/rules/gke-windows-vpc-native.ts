/**
 * gke-windows-vpc-native: Windows node pools need alias IPs
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). Split out of gke-windows-cluster. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { GKE_CLUSTER, GKE_POOL_COMPONENT } from './cloud-resources';
import { routesIssue } from '../cloud/gke-cluster';
import { defineRule } from './rule';

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
  check: {
    scope: 'cloud',
    resources: [GKE_CLUSTER, GKE_POOL_COMPONENT],
    run: {
      'gke-cluster': ({ networkingMode }, _context, report) => {
        if (networkingMode !== 'ROUTES') return;
        const i = routesIssue('networkingMode');
        report(i.path, i.message, i.fix);
      },
    },
  },
});
