/**
 * `k8s-windows/pulumi/aks`: Windows node pools on AKS and the cluster settings they need. Loads only
 * `@pulumi/azure-native/containerservice` (never the package root, never another cloud).
 */
export { WindowsNodePool, AKS_WINDOWS_NODE_POOL_TYPE, type WindowsNodePoolArgs } from './node-pool';
export {
  windowsClusterProfile,
  checkAksClusterForWindows,
  aksClusterWarnings,
  AKS_WINDOWS_NETWORK_PLUGIN,
  type WindowsClusterProfileArgs,
  type WindowsClusterProfile,
  type AksGmsaOptions,
} from './cluster';
export {
  checkAksAgentPoolInputs,
  aksAgentPoolWarnings,
  checkAksPoolName,
  checkAksVmSize,
  checkAksReleaseForKubernetes,
  parseTaintString,
  releaseForAksOsSku,
  AKS_WINDOWS_OS_TYPE,
  AKS_WINDOWS_POOL_MODE,
  AKS_WINDOWS_TAINT,
  DEFAULT_AKS_WINDOWS_VM_SIZE,
  type ParsedTaint,
} from './agent-pool-checks';
export { parseAzureVmSize, type AzureVmSize } from './vm-size';
