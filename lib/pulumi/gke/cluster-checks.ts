/**
 * The GKE cluster side of Windows: a Standard (not Autopilot), VPC-native cluster with at least one Linux node
 * pool. Checked from what is known: facts the user states about the cluster, or the args it was created with.
 * @see https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows
 * @see https://cloud.google.com/kubernetes-engine/docs/concepts/windows-server-gke
 */
import type * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../../core/errors';
import { isKnown } from '../node-pool';
import { checkGkeNodePoolInputs, isWindowsImageType } from './node-pool-checks';

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

/** Checks the stated facts of a `GkeClusterInfo`; unknown facts pass. */
export function checkGkeClusterInfo(info: GkeClusterInfo, path = 'cluster'): ValidationIssue[] {
  return [
    ...(info.autopilot === true ? [autopilotIssue(`${path}.autopilot`)] : []),
    ...(info.vpcNative === false ? [routesIssue(`${path}.vpcNative`)] : []),
    ...(info.hasLinuxNodePool === false ? [noLinuxPoolIssue(`${path}.hasLinuxNodePool`)] : []),
  ];
}

/**
 * Checks the inputs of a GKE cluster (`container.ClusterArgs`, or the raw inputs of a
 * `gcp:container/cluster:Cluster` as a policy sees them) for Windows pools: not Autopilot, not routes-based
 * (`networkingMode: ROUTES`), a Linux pool when the cluster's own pools are all known (the default pool or
 * `nodePools`), and every inline Windows pool valid. Values not known yet pass.
 */
export function checkGkeClusterForWindows(clusterArgs: object): ValidationIssue[] {
  const args = clusterArgs as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (args.enableAutopilot === true) issues.push(autopilotIssue('enableAutopilot'));
  if (args.networkingMode === 'ROUTES') issues.push(routesIssue('networkingMode'));
  const pools = args.nodePools;
  if (Array.isArray(pools)) {
    pools.forEach((p: unknown, i) => {
      if (typeof p === 'object' && p !== null) {
        for (const issue of checkGkeNodePoolInputs(p as Record<string, unknown>)) {
          issues.push({ ...issue, path: `nodePools[${i}].${issue.path}` });
        }
      }
    });
  }
  if (args.enableAutopilot !== true && linuxPoolKnownAbsent(args)) issues.push(noLinuxPoolIssue('nodePools'));
  return issues;
}

/**
 * True only when the cluster args say every pool the cluster is created with is Windows and no other pool can
 * exist: inline `nodePools` all Windows, or the default pool kept with a Windows image. When the default pool is
 * removed, separate `NodePool` resources may hold Linux nodes, so nothing is known.
 */
function linuxPoolKnownAbsent(args: Record<string, unknown>): boolean {
  const pools = args.nodePools;
  if (Array.isArray(pools) && pools.length > 0) {
    return pools.every((p: unknown) => {
      const nc = typeof p === 'object' && p !== null ? (p as Record<string, unknown>).nodeConfig : undefined;
      const imageType = typeof nc === 'object' && nc !== null ? (nc as Record<string, unknown>).imageType : undefined;
      return isKnown(imageType) && isWindowsImageType(imageType);
    });
  }
  if (args.removeDefaultNodePool === true || !isKnown(args.removeDefaultNodePool ?? false)) return false;
  const nc = args.nodeConfig;
  const imageType = typeof nc === 'object' && nc !== null ? (nc as Record<string, unknown>).imageType : undefined;
  return isKnown(imageType) && isWindowsImageType(imageType);
}

function autopilotIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'GKE Autopilot clusters do not run Windows Server nodes.',
    fix: 'Use a Standard cluster (enableAutopilot unset) for Windows node pools.',
  };
}

function routesIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'Windows node pools need a VPC-native cluster (alias IPs); this cluster is routes-based.',
    fix: "Create the cluster with networkingMode 'VPC_NATIVE' (the default for new clusters) and an ipAllocationPolicy.",
  };
}

function noLinuxPoolIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'GKE needs at least one Linux node pool beside Windows pools (system pods such as kube-dns run on Linux).',
    fix: 'Keep the default node pool or add a Linux NodePool (e.g. imageType COS_CONTAINERD).',
  };
}
