/**
 * eks-windows-kubernetes-version: EKS publishes each Windows AMI for a range of Kubernetes versions
 * (https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-versions-windows.html). A cloud rule: its check reads
 * the resource's inputs (`runCloudRules` runs it for the policy pack and the components).
 */
import {
  EKS_KARPENTER_COMPONENT,
  EKS_NODE_GROUP,
  EKS_POOL_COMPONENT,
  EKS_SELF_MANAGED_COMPONENT,
} from './cloud-resources';
import { defineRule } from './rule';
import { windowsNodeGroup, versionFix } from '../cloud/eks-node-group';
import { checkCloudReleaseForKubernetes } from '../cloud/node-pools';
import { releaseInfo } from '../releases';

export default defineRule({
  meta: {
    id: 'eks-windows-kubernetes-version',
    family: 'eks',
    defaultSeverity: 'error',
    summary: "A Windows release EKS does not run on the node group's Kubernetes version.",
    rationale: 'EKS offers each Windows AMI only from a Kubernetes version on (Windows Server 2025 from 1.35).',
    docs: 'https://docs.aws.amazon.com/eks/latest/userguide/eks-ami-versions-windows.html',
    severityReason: 'EKS refuses the node group.',
  },
  messages: {
    'release-version': {
      description: 'A Windows release the Kubernetes version does not offer, or that EKS has retired.',
      message: '{message}',
      fix: '{fix}',
    },
    'cluster-version': {
      description: "A node group without version whose Windows release its cluster's version does not offer.",
      message:
        "amiType '{amiType}' runs {displayName}, and the node group sets no version, so it runs the version of cluster '{name}': {message}",
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP, EKS_POOL_COMPONENT, EKS_SELF_MANAGED_COMPONENT, EKS_KARPENTER_COMPONENT],
    run: {
      'eks-node-group': (props, { date }, report) => {
        const parsed = windowsNodeGroup(props)?.parsed;
        if (parsed === undefined) return;
        for (const issue of checkCloudReleaseForKubernetes('eks', parsed.release, props.version, 'version', {
          date,
          releasePath: 'amiType',
        })) {
          // In a node group's words: its version and amiType (the core speaks of releases).
          const fix = typeof props.version === 'string' ? versionFix(parsed, props.version, 'version') : undefined;
          report({
            path: issue.path,
            messageId: 'release-version',
            data: { message: issue.message, fix: fix ?? issue.fix },
          });
        }
      },
      // A node group that sets no version runs its cluster's (EKS creates it on the cluster's): the finding is on
      // amiType, the input the user wrote; the fix names the cluster's version.
      'eks-node-group-in-cluster': ({ nodeGroup, cluster }, _context, report) => {
        if (nodeGroup.version !== undefined || typeof cluster.version !== 'string') return;
        const parsed = windowsNodeGroup(nodeGroup)?.parsed;
        if (parsed === undefined) return;
        const fix = versionFix(parsed, cluster.version, "the cluster's version");
        for (const i of checkCloudReleaseForKubernetes('eks', parsed.release, cluster.version, 'version')) {
          report({
            path: 'amiType',
            messageId: 'cluster-version',
            data: {
              amiType: String(nodeGroup.amiType),
              displayName: releaseInfo(parsed.release).displayName,
              name: String(cluster.name),
              message: i.message,
              fix: fix ?? i.fix ?? '',
            },
          });
        }
      },
      // A pool component's release against the version it runs (at construction, or once an Output resolves).
      'eks-version-component': ({ release, kubernetesVersion: version }, { date }, report) => {
        const releasePath = version.releasePath;
        for (const i of checkCloudReleaseForKubernetes('eks', release, version.value, version.path, {
          date,
          ...(releasePath !== undefined ? { releasePath } : {}),
        })) {
          report({ path: i.path, messageId: 'release-version', data: { message: i.message, fix: i.fix } });
        }
      },
    },
  },
});
