/**
 * The `k8s-windows/pulumi` entry: Windows workloads, RuntimeClasses and gMSA credential specs on
 * `@pulumi/kubernetes`, built from a node pool's `nodeTarget` (`k8s-windows/pulumi/eks`, `/aks`, `/gke`) so pods
 * tolerate exactly the taints their pool applies, and `cloudFindingSink`, where the components and the policy pack
 * report their findings as data; and the node add-ons (`WindowsExporter`, `CsiProxy`, `FluentBitWindows`,
 * `SmbCsiNodeWindows`, `perWindowsBuild`), the components `k8s-windows/addons` gives cdk8s. Named exports only: the
 * components, their args, `perWindowsBuild` and the sink; the helpers behind them stay in their modules. The
 * CrossGuard policy pack lives in `k8s-windows/pulumi/policy`.
 */
export {
  WindowsDeployment,
  WindowsStatefulSet,
  WindowsDaemonSet,
  WindowsJob,
  WindowsCronJob,
  type WindowsDeploymentArgs,
  type WindowsStatefulSetArgs,
  type WindowsDaemonSetArgs,
  type WindowsJobArgs,
  type WindowsCronJobArgs,
} from './k8s/workloads';
export { type WindowsPodArgs } from './k8s/windows-pod';
export { WindowsRuntimeClass, type WindowsRuntimeClassArgs } from './k8s/runtime-class';
export { GmsaCredentialSpec, type GmsaCredentialSpecArgs } from './k8s/gmsa';
export { cloudFindingSink, type CloudFinding, type RecordedFindings } from '../core/rules/cloud-findings';
export { WindowsAdmissionPolicies, type WindowsAdmissionPoliciesArgs } from './k8s/admission-policies';
export { WindowsExporter, type WindowsExporterArgs } from './k8s/windows-exporter';
export { CsiProxy, type CsiProxyArgs } from './k8s/csi-proxy';
export { FluentBitWindows, type FluentBitWindowsArgs } from './k8s/fluent-bit-windows';
export { SmbCsiNodeWindows, type SmbCsiNodeWindowsArgs } from './k8s/smb-csi-node-windows';
export { perWindowsBuild } from './k8s/per-windows-build';
