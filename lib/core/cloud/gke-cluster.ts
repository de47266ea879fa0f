/**
 * What the GKE cluster rules share: whether a cluster's own pools are known to be all Windows, and the refusals of
 * a cluster that cannot run Windows pools (said of the cluster's inputs by the rules, of the facts a pool states
 * about its cluster by the component).
 * @see https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows
 */
import type { ValidationIssue } from '../errors';
import type { GkeClusterInput } from '../rules/cloud-inputs';
import { isKnown } from './node-pools';
import { isWindowsImageType } from './gke-node-pool';

/**
 * True only when the cluster args say every pool the cluster is created with is Windows and no other pool can
 * exist: inline `nodePools` all Windows, or the default pool kept with a Windows image. When the default pool is
 * removed, separate `NodePool` resources may hold Linux nodes, so nothing is known.
 */
export function linuxPoolKnownAbsent(args: GkeClusterInput): boolean {
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

export function autopilotIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'GKE Autopilot clusters do not run Windows Server nodes.',
    fix: 'Use a Standard cluster (enableAutopilot unset) for Windows node pools.',
  };
}

export function routesIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'Windows node pools need a VPC-native cluster (alias IPs); this cluster is routes-based.',
    fix: "Create the cluster with networkingMode 'VPC_NATIVE' (the default for new clusters) and an ipAllocationPolicy.",
  };
}

export function noLinuxPoolIssue(path: string): ValidationIssue {
  return {
    path,
    message: 'GKE needs at least one Linux node pool beside Windows pools (system pods such as kube-dns run on Linux).',
    fix: 'Keep the default node pool or add a Linux NodePool (e.g. imageType COS_CONTAINERD).',
  };
}
