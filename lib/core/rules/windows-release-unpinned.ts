/**
 * windows-release-unpinned: AKS picks the Windows release from the Kubernetes version when osSKU is unset
 * (https://learn.microsoft.com/azure/aks/upgrade-windows-os). A cloud rule: its check reads a cloud resource's
 * inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { AKS_AGENT_POOL, GKE_NODE_POOL } from './cloud-resources';
import { defineRule } from './rule';
import { isWindowsAgentPool, releasesForVersion } from '../cloud/aks-agent-pool';
import { windowsNodeConfig, windowsOsVersionOf } from '../cloud/gke-node-pool';
import { defaultReleaseFor } from '../cloud-gates';
import { releaseInfo } from '../releases';

export default defineRule({
  meta: {
    id: 'windows-release-unpinned',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary:
      'An AKS or GKE Windows pool that leaves the Windows release to the cloud (no osSKU, no image type release).',
    rationale:
      'The cloud then picks the release from the Kubernetes version, so an upgrade can move nodes to a build the images do not match.',
    docs: 'https://learn.microsoft.com/azure/aks/upgrade-windows-os',
    severityReason: 'The pool runs; an upgrade can break the image match.',
  },
  messages: {
    unpinned: {
      description: 'A Windows node pool that leaves its Windows release to the cloud.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [AKS_AGENT_POOL, GKE_NODE_POOL],
    run: {
      'aks-agent-pool': (props, _context, report) => {
        if (!isWindowsAgentPool(props) || props.osSKU !== undefined) return;
        const version = typeof props.orchestratorVersion === 'string' ? props.orchestratorVersion : undefined;
        const offered = (version === undefined ? [] : releasesForVersion(version)).map(
          (r) => `'${releaseInfo(r).aksOsSku}'`,
        );
        report({
          path: 'osSKU',
          messageId: 'unpinned',
          data: {
            message:
              'osSKU is not set: AKS picks the Windows release from the Kubernetes version, so images may stop matching the node build.',
            fix: `Set osSKU${offered.length > 0 ? ` (Kubernetes ${version} takes ${offered.join(' or ')})` : `, e.g. '${releaseInfo(defaultReleaseFor('aks', undefined)).aksOsSku}' (or '${releaseInfo(defaultReleaseFor('aks', '1.37')).aksOsSku}' from Kubernetes 1.37)`}.`,
          },
        });
      },
      'gke-node-pool': (props, _context, report) => {
        const nodeConfig = windowsNodeConfig(props);
        if (nodeConfig === undefined) return;
        const osversion = windowsOsVersionOf(nodeConfig);
        if (osversion !== undefined && osversion !== 'OS_VERSION_UNSPECIFIED') return;
        report({
          path: 'nodeConfig.windowsNodeConfig.osversion',
          messageId: 'unpinned',
          data: {
            message:
              'windowsNodeConfig.osversion is not set: GKE picks the Windows release, so images may not match the node build.',
            fix: `Set osversion, e.g. '${releaseInfo('2022').gkeOsVersion}'.`,
          },
        });
      },
    },
  },
});
