/**
 * What the GKE cluster rules share: whether a cluster's own pools are known to be all Windows. The refusals of a
 * cluster that cannot run Windows pools are worded in their rule modules (gke-windows-autopilot, -vpc-native,
 * -linux-pool), of a cluster's inputs and of the facts a pool component states about its cluster.
 * @see https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows
 */
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
