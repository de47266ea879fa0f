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
    },
    'cluster-version': {
      description: "A node group without version whose Windows release its cluster's version does not offer.",
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
          report(issue.path, issue.message, fix ?? issue.fix, undefined, 'release-version');
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
          report(
            'amiType',
            `amiType '${String(nodeGroup.amiType)}' runs ${releaseInfo(parsed.release).displayName}, and the node group sets no version, so it runs the version of cluster '${String(cluster.name)}': ${i.message}`,
            fix ?? i.fix ?? '',
            undefined,
            'cluster-version',
          );
        }
      },
      // A pool component's release against the version it runs (at construction, or once an Output resolves).
      'eks-version-component': ({ release, kubernetesVersion: version }, { date }, report) => {
        const releasePath = version.releasePath;
        for (const i of checkCloudReleaseForKubernetes('eks', release, version.value, version.path, {
          date,
          ...(releasePath !== undefined ? { releasePath } : {}),
        })) {
          report(i.path, i.message, i.fix, undefined, 'release-version');
        }
      },
    },
  },
});
