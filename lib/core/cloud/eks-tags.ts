/**
 * Tags Cluster Autoscaler reads on an Auto Scaling group. To scale a group up from zero it builds a template
 * node from `node-template` tags; without `kubernetes.io/os: windows` it assumes a Linux node and never picks a
 * Windows group for a pending Windows pod (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html).
 * @see https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/cloudprovider/aws/README.md#auto-discovery-setup
 */
import { OS_LABEL } from '../kube';
import type { WindowsNodeTarget } from '../target';

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
 * The extended resource through which the VPC resource controller hands Windows pods their IP: its webhook adds a
 * request for one to every Windows pod, and Windows nodes advertise how many they have. A template node without it
 * "has none", so Cluster Autoscaler finds no room for a pending Windows pod in an empty group ("Insufficient
 * vpc.amazonaws.com/PrivateIPv4Address", kubernetes/autoscaler#2888, #3133). The `node-template/resources/<name>`
 * tag tells it how many a new node brings.
 * @see https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/cloudprovider/aws/README.md#auto-discovery-setup
 * @see https://docs.aws.amazon.com/eks/latest/best-practices/cas.html
 */
export const WINDOWS_POD_IP_RESOURCE = 'vpc.amazonaws.com/PrivateIPv4Address';
/** The tag Cluster Autoscaler reads the Windows pod IP capacity of an empty group from. */
export const AUTOSCALER_WINDOWS_POD_IP_TAG = `${AUTOSCALER_NODE_TEMPLATE_PREFIX}/resources/${WINDOWS_POD_IP_RESOURCE}`;

/**
 * IPv4 addresses per network interface of the common current x86_64 families (EC2 "maximum IP addresses per
 * network interface"): sizes `large` 10, `xlarge`/`2xlarge` 15, `4xlarge`–`12xlarge` 30, bigger 50 (m5, c5, r5
 * and their a/n/i siblings of generations 5–7); `t3` differs. Other types are not known here.
 * @see https://docs.aws.amazon.com/ec2/latest/instancetypes/gp.html#gp_network
 */
const IPV4_PER_ENI_BY_SIZE: Readonly<Record<string, number>> = {
  large: 10,
  xlarge: 15,
  '2xlarge': 15,
  '4xlarge': 30,
  '8xlarge': 30,
  '9xlarge': 30,
  '12xlarge': 30,
  '16xlarge': 50,
  '18xlarge': 50,
  '24xlarge': 50,
  '32xlarge': 50,
  '48xlarge': 50,
  metal: 50,
};
const T3_IPV4_PER_ENI: Readonly<Record<string, number>> = { medium: 6, large: 12, xlarge: 15, '2xlarge': 15 };
const STANDARD_FAMILY = /^[mcr][5-7][adin]*$/;

/**
 * How many Windows pods a node of `instanceType` can hold by IP (secondary-IP mode: Windows uses only the primary
 * network interface, and its primary address is the node's own), or undefined when the type is not in the table.
 * @see https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html
 */
export function windowsPodIpCapacity(instanceType: string): number | undefined {
  const m = /^([a-z][a-z0-9-]*)\.([a-z0-9-]+)$/.exec(instanceType);
  if (!m) return undefined;
  const [, family, size] = m;
  const perEni =
    family === 't3' || family === 't3a'
      ? T3_IPV4_PER_ENI[size]
      : STANDARD_FAMILY.test(family)
        ? IPV4_PER_ENI_BY_SIZE[size]
        : undefined;
  return perEni === undefined ? undefined : perEni - 1;
}

/**
 * `node-template` tags for every label and taint of a target: `.../label/<key>: <value>` and
 * `.../taint/<key>: <value>:<Effect>` (Kubernetes effect spelling, as Cluster Autoscaler parses it), and, when
 * known, `.../resources/vpc.amazonaws.com/PrivateIPv4Address: <pods>` so an empty group can scale up from zero.
 */
export function autoscalerNodeTemplateTags(target: WindowsNodeTarget, podIpCapacity?: number): Record<string, string> {
  const tags: Record<string, string> = {};
  if (podIpCapacity !== undefined) tags[AUTOSCALER_WINDOWS_POD_IP_TAG] = String(podIpCapacity);
  for (const [key, value] of Object.entries(target.labels))
    tags[`${AUTOSCALER_NODE_TEMPLATE_PREFIX}/label/${key}`] = value;
  for (const taint of target.taints) {
    tags[`${AUTOSCALER_NODE_TEMPLATE_PREFIX}/taint/${taint.key}`] = `${taint.value ?? ''}:${taint.effect}`;
  }
  return tags;
}
