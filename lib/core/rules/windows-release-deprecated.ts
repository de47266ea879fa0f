/**
 * windows-release-deprecated: a pool of a release whose support is computed as deprecated at the evaluation date
 * (upstream Kubernetes no longer lists it, or Microsoft's extended support has ended: lib/core/facts/support.ts). A
 * cloud that has retired the release refuses it instead (the cloud's gate rule). A cloud rule: its check reads a
 * cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { deprecationSummary, upstreamDroppedReleases } from '../facts/support';
import { WINDOWS_NODE_POOLS } from './cloud-resources';
import { defineRule } from './rule';
import { isWindowsAgentPool, releaseForAksOsSku } from '../cloud/aks-agent-pool';
import { releaseForGkeOsVersion, windowsNodeConfig, windowsOsVersionOf } from '../cloud/gke-node-pool';
import { releaseSupportWarnings } from '../cloud/node-pools';

export default defineRule({
  meta: {
    id: 'windows-release-deprecated',
    family: 'node-pools',
    defaultSeverity: 'warning',
    summary: `A Windows node pool on a deprecated release (${upstreamDroppedReleases()
      .map((r) => `Windows Server ${r}`)
      .join(', ')}).`,
    rationale: `${upstreamDroppedReleases().map(deprecationSummary).join('; ')}; images must be rebuilt for the next release.`,
    docs: 'https://kubernetes.io/docs/concepts/windows/intro/#windows-os-version-support',
    severityReason: 'The pool runs today; where a cloud has retired the release, its gate refuses the pool instead.',
  },
  messages: {
    deprecated: {
      description: 'A Windows node pool on a deprecated Windows Server release.',
      message: '{message}',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: WINDOWS_NODE_POOLS,
    run: {
      'eks-pool-component': ({ release }, { date }, report) => {
        for (const w of releaseSupportWarnings(release, 'release', date)) {
          report({ path: '', messageId: 'deprecated', data: { message: w.message, fix: w.fix } });
        }
      },
      'aks-pool-component': ({ release }, { date }, report) => {
        if (release === undefined) return;
        for (const w of releaseSupportWarnings(release, 'release', date)) {
          report({ path: w.path, messageId: 'deprecated', data: { message: w.message, fix: w.fix } });
        }
      },
      'gke-pool-component': ({ release }, { date }, report) => {
        if (release === undefined) return;
        for (const w of releaseSupportWarnings(release, 'release', date)) {
          report({ path: w.path, messageId: 'deprecated', data: { message: w.message, fix: w.fix } });
        }
      },
      'aks-agent-pool': ({ osType, osSKU }, { date }, report) => {
        if (!isWindowsAgentPool({ osType }) || typeof osSKU !== 'string') return;
        const release = releaseForAksOsSku(osSKU);
        if (release === undefined) return;
        for (const w of releaseSupportWarnings(release, 'osSKU', date)) {
          report({ path: w.path, messageId: 'deprecated', data: { message: w.message, fix: w.fix } });
        }
      },
      'gke-node-pool': (props, { date }, report) => {
        const nodeConfig = windowsNodeConfig(props);
        const osversion = nodeConfig === undefined ? undefined : windowsOsVersionOf(nodeConfig);
        if (typeof osversion !== 'string' || osversion === 'OS_VERSION_UNSPECIFIED') return;
        const release = releaseForGkeOsVersion(osversion);
        if (release === undefined) return;
        const path = 'nodeConfig.windowsNodeConfig.osversion';
        for (const w of releaseSupportWarnings(release, path, date)) {
          report({ path: w.path, messageId: 'deprecated', data: { message: w.message, fix: w.fix } });
        }
      },
    },
  },
});
