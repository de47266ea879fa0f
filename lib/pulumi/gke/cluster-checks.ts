/**
 * The GKE cluster side of Windows: a Standard (not Autopilot), VPC-native cluster with at least one Linux node
 * pool. Checked from what is known: facts the user states about the cluster, or the args it was created with.
 * @see https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows
 * @see https://cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke
 */
import type * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../../core/errors';
import type { CloudFinding } from '../../core/rules/cloud-findings';
import { runCloudRules } from '../../core/rules/cloud-runner';
import gkeWindowsCluster from '../../core/rules/gke-windows-cluster';
import { ComponentRefusals } from '../node-pool';

/**
 * The cluster a Windows pool joins, and what is known about it. The facts are optional: state them when you know
 * them (or pass `clusterArgs` to the pool) and the pool refuses a cluster that cannot run Windows nodes.
 */
export interface GkeClusterInfo {
  /** Cluster name or id (`cluster.name` or `cluster.id` of a `gcp.container.Cluster`). */
  readonly name: pulumi.Input<string>;
  /** Cluster location (region or zone). */
  readonly location: pulumi.Input<string>;
  /**
   * Project of the cluster.
   * @default - the provider's project
   */
  readonly project?: pulumi.Input<string>;
  /**
   * Whether the cluster is VPC-native (alias IPs, `networkingMode: VPC_NATIVE`): Windows pools need it.
   * @default - unknown: not checked
   */
  readonly vpcNative?: boolean;
  /**
   * Whether the cluster has a Linux node pool for system pods: Windows pools need one.
   * @default - unknown: not checked
   */
  readonly hasLinuxNodePool?: boolean;
  /**
   * Whether the cluster is Autopilot: Windows node pools need a Standard cluster.
   * @default - unknown: not checked
   */
  readonly autopilot?: boolean;
}

/** Checks the stated facts of a `GkeClusterInfo` (the GKE cluster rules); unknown facts pass. */
export function checkGkeClusterInfo(info: GkeClusterInfo, path = 'cluster'): ValidationIssue[] {
  const { autopilot, vpcNative, hasLinuxNodePool } = info;
  const facts = runCloudRules({
    kind: 'gke-cluster-info-component',
    props: { autopilot, vpcNative, hasLinuxNodePool },
  });
  return new ComponentRefusals(facts).rest().map((i) => ({ ...i, path: `${path}.${i.path}` }));
}

/**
 * Checks the inputs of a GKE cluster (`container.ClusterArgs`, or the raw inputs of a
 * `gcp:container/cluster:Cluster` as a policy sees them) for Windows pools: not Autopilot, not routes-based
 * (`networkingMode: ROUTES`), a Linux pool when the cluster's own pools are all known (the default pool or
 * `nodePools`) — the GKE cluster rules — and every inline Windows pool held to the node pool rules (its findings
 * still named by `gke-windows-cluster` in settings). Values not known yet pass.
 */
export function checkGkeClusterForWindows(clusterArgs: object): CloudFinding[] {
  const args = clusterArgs as Record<string, unknown>;
  const findings = runCloudRules({ kind: 'gke-cluster', props: args });
  const pools = args.nodePools;
  if (Array.isArray(pools)) {
    pools.forEach((p: unknown, i) => {
      if (typeof p !== 'object' || p === null) return;
      for (const f of runCloudRules({ kind: 'gke-node-pool', props: p as Record<string, unknown> })) {
        if (f.severity !== 'error') continue;
        findings.push({ ...f, path: `nodePools[${i}].${f.path}`, formerly: gkeWindowsCluster.meta.id });
      }
    });
  }
  return findings.filter((f) => f.severity === 'error');
}
