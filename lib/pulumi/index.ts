/**
 * k8s-windows for Pulumi: Windows workloads, RuntimeClasses and gMSA credential specs on `@pulumi/kubernetes`,
 * built from a node pool's `nodeTarget` (`k8s-windows/pulumi/eks`, `/aks`, `/gke`) so pods tolerate exactly the
 * taints their pool applies. The CrossGuard policy pack lives in `k8s-windows/pulumi/policy`.
 */
export {
  WindowsDeployment,
  WindowsStatefulSet,
  WindowsDaemonSet,
  WindowsJob,
  WindowsCronJob,
  type WindowsDeploymentArgs,
  type WindowsReplicatedArgs,
  type WindowsStatefulSetArgs,
  type WindowsDaemonSetArgs,
  type WindowsJobArgs,
  type WindowsCronJobArgs,
  type WindowsDeploymentSpec,
  type WindowsStatefulSetSpec,
  type WindowsDaemonSetSpec,
  type WindowsJobSpec,
  type WindowsCronJobSpec,
} from './k8s/workloads';
export {
  WindowsWorkload,
  DEFAULT_POD_LABEL,
  type WindowsWorkloadArgs,
  type WindowsPodTemplateInput,
  type WorkloadKind,
  type ObjectMetaInput,
  type PodSpecInput,
} from './k8s/workload';
export { type WindowsPodArgs, type GmsaCredentialSpecReference } from './k8s/windows-pod';
export { WindowsRuntimeClass, type WindowsRuntimeClassArgs } from './k8s/runtime-class';
export { windowsRuntimeHandler } from '../core/releases';
export { GmsaCredentialSpec, type GmsaCredentialSpecArgs, type GmsaUseGrant } from './k8s/gmsa';
export { throwInputErrors, asInputErrors } from './errors';
export {
  cloudFindingSink,
  FindingSink,
  type CloudFinding,
  type FindingListener,
  type RecordedFindings,
} from '../core/rules/cloud-findings';
export {
  WindowsAdmissionPolicies,
  WINDOWS_ADMISSION_POLICIES_TYPE,
  type WindowsAdmissionPoliciesArgs,
  type WindowsAdmissionPolicyPoolArgs,
  type WindowsAdmissionPolicyPoolResource,
} from './k8s/admission-policies';
