/**
 * gke-windows-image-type: GKE offers Windows nodes only as LTSC with containerd
 * (https://cloud.google.com/kubernetes-engine/docs/concepts/node-images#windows). Split out of gke-windows-node-pool. A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { GKE_NODE_POOL, GKE_POOL_COMPONENT } from './cloud-resources';
import { GKE_WINDOWS_IMAGE_TYPE, windowsNodeConfig } from '../cloud/gke-node-pool';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gke-windows-image-type',
    family: 'gke',
    defaultSeverity: 'error',
    summary: 'A Windows node pool image type GKE has retired (SAC, Docker).',
    rationale:
      'GKE offers Windows nodes only as LTSC with containerd; the release is picked by windowsNodeConfig.osversion.',
    docs: 'https://cloud.google.com/kubernetes-engine/docs/concepts/node-images#windows',
    severityReason: 'GKE refuses the pool.',
  },
  messages: {
    'image-type': {
      description: 'A retired Windows image type (not LTSC with containerd).',
      message: "Image type '{imageType}' is retired: GKE offers Windows nodes only as LTSC with containerd.",
      fix: "Use '{GKE_WINDOWS_IMAGE_TYPE}' with windowsNodeConfig.osversion to pick the release.",
    },
  },
  check: {
    scope: 'cloud',
    resources: [GKE_NODE_POOL, GKE_POOL_COMPONENT],
    run: {
      'gke-node-pool': (props, _context, report) => {
        const imageType = windowsNodeConfig(props)?.imageType;
        if (typeof imageType !== 'string' || imageType.toUpperCase() === GKE_WINDOWS_IMAGE_TYPE) return;
        report({ path: 'nodeConfig.imageType', messageId: 'image-type', data: { imageType, GKE_WINDOWS_IMAGE_TYPE } });
      },
    },
  },
});
