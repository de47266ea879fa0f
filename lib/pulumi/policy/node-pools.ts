/**
 * The cloud node-pool and cluster checks the policy pack runs on raw provider resources (node groups, agent pools,
 * node pools and clusters users wrote without our components). Only the clouds' pure check modules are loaded:
 * the pack never loads `@pulumi/aws`, `@pulumi/azure-native` or `@pulumi/gcp`.
 */
import type { CloudFinding } from '../../core/rules/cloud-findings';
import { aksClusterWarnings, checkAksClusterForWindows } from '../aks/checks';
import { checkEksNodeGroupInheritedVersion } from '../eks/node-group-check';
import { checkEksClusterForWindows, EKS_CLUSTER_TYPE } from '../eks/cluster-checks';
import { checkGkeClusterForWindows, isWindowsImageType } from '../gke/checks';
import { runCloudRules } from '../../core/rules/cloud-runner';
import { readProps } from './props';
import { EKS_NODE_GROUP, GKE_CLUSTER, GKE_NODE_POOL } from '../../core/rules/cloud-resources';

type Json = Record<string, unknown>;

export type { CloudFinding };

/** Pulumi type tokens of the raw cloud resources checked. Azure Native also has versioned modules. */
export const EKS_NODE_GROUP_TYPE = EKS_NODE_GROUP;
export const GKE_NODE_POOL_TYPE = GKE_NODE_POOL;
export const GKE_CLUSTER_TYPE = GKE_CLUSTER;
const AKS_AGENT_POOL = /^azure-native:containerservice(\/v[0-9a-z]+)?:AgentPool$/;
const AKS_MANAGED_CLUSTER = /^azure-native:containerservice(\/v[0-9a-z]+)?:ManagedCluster$/;

export type CloudResourceKind = 'eks-node-group' | 'aks-agent-pool' | 'aks-cluster' | 'gke-node-pool' | 'gke-cluster';

/** Which checked cloud resource a type token is, if any. */
export function cloudResourceKind(type: string): CloudResourceKind | undefined {
  if (type === EKS_NODE_GROUP_TYPE) return 'eks-node-group';
  if (AKS_AGENT_POOL.test(type)) return 'aks-agent-pool';
  if (AKS_MANAGED_CLUSTER.test(type)) return 'aks-cluster';
  if (type === GKE_NODE_POOL_TYPE) return 'gke-node-pool';
  if (type === GKE_CLUSTER_TYPE) return 'gke-cluster';
  return undefined;
}

function warnings(list: readonly { ruleId: string; path: string; message: string; fix?: string }[]): CloudFinding[] {
  return list.map((w) => ({ ...w, severity: 'warning' as const }));
}

/**
 * The findings of a node pool (EKS node group, AKS agent pool, GKE node pool): nothing for Linux pools and for
 * other resources. Unknown (preview) values are skipped by the checks.
 */
export function nodePoolFindings(type: string, props: unknown): CloudFinding[] {
  const kind = cloudResourceKind(type);
  if (kind !== 'eks-node-group' && kind !== 'aks-agent-pool' && kind !== 'gke-node-pool') return [];
  return runCloudRules({ kind, props: readProps(props, 'placeholder').value });
}

/** Whether a node pool or cluster resource declares Windows nodes (its own, or inline pools). */
export function declaresWindowsNodes(type: string, props: Json): boolean {
  const kind = cloudResourceKind(type);
  switch (kind) {
    case 'eks-node-group':
      return typeof props.amiType === 'string' && props.amiType.toUpperCase().startsWith('WINDOWS');
    case 'aks-agent-pool':
      return props.osType === 'Windows';
    case 'aks-cluster':
      return (
        Array.isArray(props.agentPoolProfiles) && props.agentPoolProfiles.some((p) => (p as Json)?.osType === 'Windows')
      );
    case 'gke-node-pool':
      return isWindowsImageType((props.nodeConfig as Json | undefined)?.imageType);
    case 'gke-cluster':
      return (
        isWindowsImageType((props.nodeConfig as Json | undefined)?.imageType) ||
        (Array.isArray(props.nodePools) &&
          props.nodePools.some((p) => isWindowsImageType(((p as Json)?.nodeConfig as Json | undefined)?.imageType)))
      );
    case undefined:
      return false;
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

/** A resource of the stack, as a stack policy sees it. */
export interface StackResource {
  readonly type: string;
  readonly name: string;
  readonly urn: string;
  readonly props: unknown;
}

/**
 * The findings of the clusters in a stack that has Windows nodes on that cloud: an AKS cluster needs a
 * `windowsProfile` and Azure CNI; a GKE cluster must be Standard, VPC-native, with a Linux pool. Clusters of a
 * cloud without Windows pools in the stack are not checked (they may not be meant for Windows).
 */
export function clusterFindings(resources: readonly StackResource[]): { urn: string; finding: CloudFinding }[] {
  const read = resources.map((r) => ({ ...r, value: readProps(r.props, 'placeholder').value }));
  const windowsOn = (cloud: 'aks' | 'gke'): boolean =>
    read.some((r) => cloudResourceKind(r.type)?.startsWith(cloud) && declaresWindowsNodes(r.type, r.value));
  const out: { urn: string; finding: CloudFinding }[] = [];
  // EKS: the cluster-level findings go to the stack's cluster, else to its first Windows node group.
  const eks = checkEksClusterForWindows(read.map((r) => ({ type: r.type, props: r.value })));
  if (eks.length > 0) {
    const anchor =
      read.find((r) => r.type === EKS_CLUSTER_TYPE) ??
      read.find((r) => declaresWindowsNodes(r.type, r.value) && cloudResourceKind(r.type) === 'eks-node-group') ??
      read[0];
    for (const { ruleId, messageId, severity, path, message, fix } of eks) {
      out.push({
        urn: anchor.urn,
        finding: {
          ruleId,
          ...(messageId !== undefined ? { messageId } : {}),
          severity,
          path,
          message,
          ...(fix !== undefined ? { fix } : {}),
        },
      });
    }
  }
  // A node group without `version` runs its cluster's: check its release against the cluster it names.
  for (const r of read) {
    if (cloudResourceKind(r.type) !== 'eks-node-group' || typeof r.value.clusterName !== 'string') continue;
    const cluster = read.find((c) => c.type === EKS_CLUSTER_TYPE && c.value.name === r.value.clusterName);
    if (cluster === undefined) continue;
    for (const finding of checkEksNodeGroupInheritedVersion(r.value, {
      clusterName: r.value.clusterName,
      version: cluster.value.version,
    })) {
      out.push({ urn: r.urn, finding });
    }
  }
  for (const r of read) {
    const kind = cloudResourceKind(r.type);
    if (kind === 'aks-cluster' && windowsOn('aks')) {
      for (const finding of [...checkAksClusterForWindows(r.value), ...warnings(aksClusterWarnings(r.value))]) {
        out.push({ urn: r.urn, finding });
      }
    } else if (kind === 'gke-cluster' && windowsOn('gke')) {
      for (const finding of checkGkeClusterForWindows(r.value)) out.push({ urn: r.urn, finding });
    }
  }
  return out;
}
