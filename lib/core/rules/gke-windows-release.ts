/**
 * gke-windows-release: GKE offers each Windows release on some versions
 * (https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows). Split out of gke-windows-node-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { GKE_NODE_POOL, GKE_POOL_COMPONENT } from './cloud-resources';
import {
  checkGkeRelease,
  checkGkeReleaseForKubernetes,
  offeredOsVersions,
  releaseForGkeOsVersion,
  windowsNodeConfig,
  windowsOsVersionOf,
} from '../cloud/gke-node-pool';
import { isKnown } from '../cloud/node-pools';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gke-windows-release',
    family: 'gke',
    defaultSeverity: 'error',
    summary:
      "A Windows node pool osversion GKE does not offer, or a release GKE does not run on the pool's Kubernetes version.",
    rationale: 'GKE offers each Windows release as an osversion on a range of GKE versions.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows',
    severityReason: 'GKE refuses the pool.',
  },
  messages: {
    'not-offered': {
      description: 'A Windows release or osversion GKE does not offer.',
      message: '{message}',
      fix: '{fix}',
    },
    'release-version': {
      description: 'A Windows release the Kubernetes version does not offer.',
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
        const osversion = nodeConfig === undefined ? undefined : windowsOsVersionOf(nodeConfig);
        if (!isKnown(osversion) || osversion === 'OS_VERSION_UNSPECIFIED') return;
        const release = typeof osversion === 'string' ? releaseForGkeOsVersion(osversion) : undefined;
        if (release === undefined) {
          report({
            path: 'nodeConfig.windowsNodeConfig.osversion',
            messageId: 'not-offered',
            data: {
              message: `osversion ${JSON.stringify(osversion)} is not one GKE offers.`,
              fix: `Use ${offeredOsVersions()
                .map((v) => `'${v}'`)
                .join(' or ')}.`,
            },
          });
          return;
        }
        for (const i of checkGkeReleaseForKubernetes(release, props.version, 'version')) {
          report({ path: i.path, messageId: 'release-version', data: { message: i.message, fix: i.fix } });
        }
      },
      'gke-pool-component': ({ release, kubernetesVersion }, _context, report) => {
        if (release === undefined) return;
        for (const i of checkGkeRelease(release, 'release'))
          report({ path: i.path, messageId: 'not-offered', data: { message: i.message, fix: i.fix } });
        for (const i of checkGkeReleaseForKubernetes(release, kubernetesVersion, 'kubernetesVersion')) {
          report({ path: i.path, messageId: 'release-version', data: { message: i.message, fix: i.fix } });
        }
      },
    },
  },
});
