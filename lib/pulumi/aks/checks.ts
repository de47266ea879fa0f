/**
 * The pure AKS checks, without the component: for the policy pack and other callers that must not load
 * `@pulumi/azure-native` (this file imports only `@pulumi/pulumi` and the core).
 */
export { checkAksClusterForWindows, aksClusterWarnings } from './cluster';
export {
  checkAksAgentPoolInputs,
  aksAgentPoolWarnings,
  checkAksPoolName,
  checkAksVmSize,
  checkAksReleaseForKubernetes,
  parseTaintString,
  releaseForAksOsSku,
  AKS_WINDOWS_OS_TYPE,
} from './agent-pool-checks';
