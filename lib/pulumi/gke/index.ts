/**
 * `k8s-windows/pulumi/gke`: Windows Server node pools on GKE. Loads only `@pulumi/gcp/container` (never the package
 * root, never another cloud).
 *
 * Named exports only: the node pool, its args and the cluster facts it is given. The checks the pool runs stay in
 * their modules.
 */
export { WindowsNodePool, type WindowsNodePoolArgs } from './node-pool';
export { type GkeClusterInfo } from './cluster-checks';
