/**
 * The `k8s-windows/cdk8s` entry: Windows workloads on cdk8s-plus-28 (`k8s-windows/cdk8s-plus-NN` give the same for
 * later majors). Each workload construct is the cdk8s-plus construct it extends, made valid for Windows when it
 * renders. Named exports only: the constructs, their props and what a user passes to them; the helpers behind them
 * stay in their modules. Node targets, gMSA host accounts and the engine come from `k8s-windows`.
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
export { WindowsAnnotations } from './annotations';
export {
  WindowsDeployment,
  WindowsStatefulSet,
  WindowsDaemonSet,
  WindowsJob,
  WindowsCronJob,
  type IWindowsWorkload,
} from './workloads';
export { WindowsRuntimeClass, type WindowsRuntimeClassProps } from './runtime-class';
export { WindowsHostProcessDaemonSet, type WindowsHostProcessDaemonSetProps } from './host-process';
export { pinLinuxWorkloads, type PinLinuxWorkloadsOptions } from './linux-pinning';
export { GmsaCredentialSpec, type GmsaCredentialSpecProps, type IGmsaCredentialSpecRef } from './gmsa';
export { GmsaWebhook, type GmsaWebhookProps } from './gmsa-webhook';
export { WindowsKarpenterNodePool, type WindowsKarpenterNodePoolProps } from './karpenter';
export {
  WindowsAdmissionPolicies,
  type WindowsAdmissionPoliciesProps,
  type WindowsAdmissionPolicyPool,
  type WindowsAdmissionPolicyRuntimeClass,
} from './admission-policies';
