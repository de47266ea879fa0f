/**
 * `k8s-windows/pulumi/gke`: Windows Server node pools on GKE and the cluster checks they need. Loads only
 * `@pulumi/gcp/container` (never the package root, never another cloud).
 */
export { WindowsNodePool, GKE_WINDOWS_NODE_POOL_TYPE, type WindowsNodePoolArgs } from './node-pool';
export { checkGkeClusterForWindows, checkGkeClusterInfo, type GkeClusterInfo } from './cluster-checks';
export {
  checkGkeNodePoolInputs,
  gkeNodePoolWarnings,
  checkGkeMachineType,
  checkGkeRelease,
  checkGkeTaints,
  isWindowsImageType,
  releaseForGkeOsVersion,
  GKE_WINDOWS_IMAGE_TYPE,
  DEFAULT_GKE_WINDOWS_MACHINE_TYPE,
} from './node-pool-checks';
export { parseGceMachineType, type GceMachineType } from './machine-type';
