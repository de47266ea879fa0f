/**
 * The pure GKE checks, without the component: for the policy pack and other callers that must not load
 * `@pulumi/gcp` (this file imports only `@pulumi/pulumi` and the core).
 */
export { checkGkeClusterForWindows, checkGkeClusterInfo, type GkeClusterInfo } from './cluster-checks';
export {
  checkGkeNodePoolInputs,
  gkeNodePoolWarnings,
  isWindowsImageType,
  releaseForGkeOsVersion,
  GKE_WINDOWS_IMAGE_TYPE,
} from './node-pool-checks';
