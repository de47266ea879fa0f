/**
 * `k8s-windows/pulumi/aks`: Windows node pools on AKS and the cluster settings they need. Loads only
 * `@pulumi/azure-native/containerservice` (never the package root, never another cloud).
 *
 * Named exports only: the node pool, its args, and `windowsClusterProfile` for the cluster's Windows settings. The
 * checks the pool runs stay in their modules.
 */
export { WindowsNodePool, type WindowsNodePoolArgs } from './node-pool';
export { windowsClusterProfile, type WindowsClusterProfile, type WindowsClusterProfileArgs } from './cluster';
