/**
 * k8s-windows for cdk8s: Windows workloads on cdk8s-plus-28. Each workload construct is the cdk8s-plus construct
 * it extends, made valid for Windows when it renders.
 */
export type {
  IGmsaCredentialSpec,
  IWindowsRuntimeClass,
  WindowsCronJobProps,
  WindowsDaemonSetProps,
  WindowsDeploymentProps,
  WindowsJobProps,
  WindowsProps,
  WindowsStatefulSetProps,
} from './windows-props';
export { RESOLVE_IMAGES_CONTEXT } from './image-facts';
export type { ImageResolutionSettings } from '../registry/resolve-set';
export {
  CONSTRUCT_WARNINGS_FILE,
  WINDOWS_WARNING_METADATA,
  WINDOWS_WARNING_TYPE,
  WindowsAnnotations,
  type ConstructWarningsFile,
  type WindowsConstructWarning,
} from './annotations';
export {
  WindowsDeployment,
  WindowsStatefulSet,
  WindowsDaemonSet,
  WindowsJob,
  WindowsCronJob,
  type IWindowsWorkload,
} from './workloads';
export {
  WINDOWS_AGENT_CONTAINER_RESOURCES,
  WINDOWS_CONTAINER_RESOURCES,
  WINDOWS_IMAGE_PULL_POLICY,
} from './windows-pod';
export {
  defaultRuntimeClassName,
  WindowsRuntimeClass,
  windowsRuntimeHandler,
  type WindowsRuntimeClassProps,
} from './runtime-class';
export {
  DEFAULT_HOST_PROCESS_NAMESPACE,
  HOST_PROCESS_TAINTS,
  isReservedNamespace,
  POD_SECURITY_ENFORCE_LABEL,
  PRIVILEGED_LEVEL,
  RESERVED_NAMESPACES,
  WindowsHostProcessDaemonSet,
  type HostProcessNamespacePolicy,
  type WindowsHostProcessDaemonSetProps,
} from './host-process';
export { pinLinuxWorkloads, type PinLinuxWorkloadsOptions } from './linux-pinning';
export { GmsaCredentialSpec, type GmsaCredentialSpecProps, type IGmsaCredentialSpecRef } from './gmsa';
export {
  GmsaWebhook,
  GMSA_WEBHOOK_IMAGE,
  GMSA_WEBHOOK_NAME,
  GMSA_WEBHOOK_DISABLED_LABEL,
  type GmsaWebhookProps,
  type GmsaWebhookTls,
} from './gmsa-webhook';
export {
  azureKeyVaultHostAccount,
  awsSecretsManagerHostAccount,
  CCG_PLUGIN_GUIDS,
  type AzureKeyVaultHostAccountOptions,
  type AwsSecretsManagerHostAccountOptions,
  type GmsaAccount,
  type GmsaDomain,
  type GmsaHostAccountConfig,
} from '../core/gmsa-credspec';
export { WindowsKarpenterNodePool, type WindowsKarpenterNodePoolProps } from './karpenter';
export {
  WindowsAdmissionPolicies,
  type WindowsAdmissionPoliciesProps,
  type WindowsAdmissionPolicyPool,
  type WindowsAdmissionPolicyRuntimeClass,
} from './admission-policies';
