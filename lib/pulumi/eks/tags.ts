/**
 * Tags Cluster Autoscaler reads on an Auto Scaling group. To scale a group up from zero it builds a template
 * node from `node-template` tags; without `kubernetes.io/os: windows` it assumes a Linux node and never picks a
 * Windows group for a pending Windows pod (reference §7).
 * @see https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/cloudprovider/aws/README.md#auto-discovery-setup
 */
import { OS_LABEL } from '../../core/kube';
import type { WindowsNodeTarget } from '../../core/target';

export const AUTOSCALER_NODE_TEMPLATE_PREFIX = 'k8s.io/cluster-autoscaler/node-template';
/** The tag without which Cluster Autoscaler cannot scale a Windows group from zero. */
export const AUTOSCALER_WINDOWS_OS_TAG = `${AUTOSCALER_NODE_TEMPLATE_PREFIX}/label/${OS_LABEL}`;
/** Auto-discovery tag Cluster Autoscaler looks for (`--node-group-auto-discovery=asg:tag=...`). */
export const AUTOSCALER_ENABLED_TAG = 'k8s.io/cluster-autoscaler/enabled';

/** The auto-discovery tag that names the cluster: `k8s.io/cluster-autoscaler/<cluster>`. */
export function autoscalerClusterTag(clusterName: string): string {
  return `k8s.io/cluster-autoscaler/${clusterName}`;
}

/**
 * `node-template` tags for every label and taint of a target: `.../label/<key>: <value>` and
 * `.../taint/<key>: <value>:<Effect>` (Kubernetes effect spelling, as Cluster Autoscaler parses it).
 */
export function autoscalerNodeTemplateTags(target: WindowsNodeTarget): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(target.labels))
    tags[`${AUTOSCALER_NODE_TEMPLATE_PREFIX}/label/${key}`] = value;
  for (const taint of target.taints) {
    tags[`${AUTOSCALER_NODE_TEMPLATE_PREFIX}/taint/${taint.key}`] = `${taint.value ?? ''}:${taint.effect}`;
  }
  return tags;
}
