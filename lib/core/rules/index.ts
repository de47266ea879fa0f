/**
 * The registry of rule modules, in catalogue order within each family. A rule is found by its id: its module is
 * `./<rule-id>.ts`.
 */
import aksWindowsAgentPool from './aks-windows-agent-pool';
import aksWindowsCluster from './aks-windows-cluster';
import aksWindowsCni from './aks-windows-cni';
import aksWindowsDataplane from './aks-windows-dataplane';
import aksWindowsFips from './aks-windows-fips';
import aksWindowsNetworkPlugin from './aks-windows-network-plugin';
import aksWindowsPasswordPlaintext from './aks-windows-password-plaintext';
import aksWindowsPoolMode from './aks-windows-pool-mode';
import aksWindowsPoolName from './aks-windows-pool-name';
import aksWindowsPoolTaints from './aks-windows-pool-taints';
import aksWindowsProfile from './aks-windows-profile';
import aksWindowsRelease from './aks-windows-release';
import aksWindowsVmSize from './aks-windows-vm-size';
import apiUnknownField from './api-unknown-field';
import apiVersionRemoved from './api-version-removed';
import eksWindowsAmiType from './eks-windows-ami-type';
import eksWindowsAutoscalerTags from './eks-windows-autoscaler-tags';
import eksWindowsDeprecatedRelease from './eks-windows-deprecated-release';
import eksWindowsDiskSize from './eks-windows-disk-size';
import eksWindowsInstanceArch from './eks-windows-instance-arch';
import eksWindowsInstanceMemory from './eks-windows-instance-memory';
import eksWindowsIpam from './eks-windows-ipam';
import eksWindowsKubernetesVersion from './eks-windows-kubernetes-version';
import eksWindowsLinuxNodeGroup from './eks-windows-linux-node-group';
import eksWindowsSystemReserved from './eks-windows-system-reserved';
import eksWindowsTaint from './eks-windows-taint';
import eksWindowsTaintEffect from './eks-windows-taint-effect';
import eksWindowsVpcResourceController from './eks-windows-vpc-resource-controller';
import gkeWindowsAutopilot from './gke-windows-autopilot';
import gkeWindowsCluster from './gke-windows-cluster';
import gkeWindowsImageType from './gke-windows-image-type';
import gkeWindowsLinuxPool from './gke-windows-linux-pool';
import gkeWindowsMachineType from './gke-windows-machine-type';
import gkeWindowsNodePool from './gke-windows-node-pool';
import gkeWindowsRelease from './gke-windows-release';
import gkeWindowsTaintEffect from './gke-windows-taint-effect';
import gkeWindowsVpcNative from './gke-windows-vpc-native';
import gmsaCredspecAccountSid from './gmsa-credspec-account-sid';
import gmsaCredspecAccounts from './gmsa-credspec-accounts';
import gmsaCredspecFormat from './gmsa-credspec-format';
import gmsaCredspecLocation from './gmsa-credspec-location';
import gmsaCredspecName from './gmsa-credspec-name';
import gmsaCredspecNotFound from './gmsa-credspec-not-found';
import gmsaHostAccountConfig from './gmsa-host-account-config';
import gmsaInitContainer from './gmsa-init-container';
import gmsaInlineSpecSize from './gmsa-inline-spec-size';
import gmsaNameFormat from './gmsa-name-format';
import gmsaRbacMissing from './gmsa-rbac-missing';
import hostprocessAllOrNone from './hostprocess-all-or-none';
import hostprocessHostNetwork from './hostprocess-host-network';
import hostprocessMismatch from './hostprocess-mismatch';
import hostprocessRunAsNonRoot from './hostprocess-run-as-non-root';
import hostprocessRunAsUserName from './hostprocess-run-as-user-name';
import imageBuildMismatch from './image-build-mismatch';
import imageBuildUnavailable from './image-build-unavailable';
import imageBuildUnpinned from './image-build-unpinned';
import imageFloatingTag from './image-floating-tag';
import imageHostprocessOnly from './image-hostprocess-only';
import imageLegacyRepository from './image-legacy-repository';
import imageNanoserverPowershell from './image-nanoserver-powershell';
import imageNotFound from './image-not-found';
import imageOsMissing from './image-os-missing';
import imageSac from './image-sac';
import imageSingleBuild from './image-single-build';
import imageUnresolved from './image-unresolved';
import inputInvalidDocument from './input-invalid-document';
import linuxNodeSelectorMissing from './linux-node-selector-missing';
import memoryTooSmall from './memory-too-small';
import podSecurityLevel from './pod-security-level';
import runtimeclassHandler from './runtimeclass-handler';
import runtimeclassIsolationMismatch from './runtimeclass-isolation-mismatch';
import runtimeclassReleaseMismatch from './runtimeclass-release-mismatch';
import suppressionInvalid from './suppression-invalid';
import wildcardToleration from './wildcard-toleration';
import windowsBetaOsLabel from './windows-beta-os-label';
import windowsBuildRetired from './windows-build-retired';
import windowsDnsHostNet from './windows-dns-host-net';
import windowsEmptydirMemory from './windows-emptydir-memory';
import windowsForbiddenField from './windows-forbidden-field';
import windowsHostNetwork from './windows-host-network';
import windowsHostPort from './windows-host-port';
import windowsHostPortCni from './windows-host-port-cni';
import windowsHugepages from './windows-hugepages';
import windowsIsolationAnnotation from './windows-isolation-annotation';
import windowsLinuxMountPath from './windows-linux-mount-path';
import windowsLinuxOnlyField from './windows-linux-only-field';
import windowsLinuxVolumeType from './windows-linux-volume-type';
import windowsMemoryRequestLimit from './windows-memory-request-limit';
import windowsMountPropagation from './windows-mount-propagation';
import windowsNfsVolume from './windows-nfs-volume';
import windowsNodeMemory from './windows-node-memory';
import windowsNodePoolUntainted from './windows-node-pool-untainted';
import windowsNodeSelectorAffinityOnly from './windows-node-selector-affinity-only';
import windowsNodeSelectorMissing from './windows-node-selector-missing';
import windowsOptionsOnLinuxPod from './windows-options-on-linux-pod';
import windowsOsName from './windows-os-name';
import windowsOsUnset from './windows-os-unset';
import windowsReleaseDeprecated from './windows-release-deprecated';
import windowsReleaseSupport from './windows-release-support';
import windowsReleaseUnpinned from './windows-release-unpinned';
import windowsRunAsNonRootImageUser from './windows-run-as-non-root-image-user';
import windowsRunAsUserName from './windows-run-as-user-name';
import windowsServiceExternalTrafficLocal from './windows-service-external-traffic-local';
import windowsServiceSessionAffinityTimeout from './windows-service-session-affinity-timeout';
import windowsStartupProbe from './windows-startup-probe';
import windowsTcpProbe from './windows-tcp-probe';
import windowsTolerationMissing from './windows-toleration-missing';
import windowsVolumeDevices from './windows-volume-devices';

export const RULE_MODULES = [
  windowsForbiddenField,
  windowsLinuxOnlyField,
  windowsOsName,
  windowsOptionsOnLinuxPod,
  apiVersionRemoved,
  apiUnknownField,
  windowsOsUnset,
  windowsRunAsUserName,
  windowsRunAsNonRootImageUser,
  gmsaNameFormat,
  gmsaInlineSpecSize,
  hostprocessMismatch,
  hostprocessAllOrNone,
  hostprocessHostNetwork,
  hostprocessRunAsUserName,
  hostprocessRunAsNonRoot,
  gmsaCredspecLocation,
  gmsaCredspecFormat,
  gmsaCredspecAccountSid,
  gmsaCredspecAccounts,
  gmsaHostAccountConfig,
  gmsaCredspecName,
  gmsaCredspecNotFound,
  gmsaRbacMissing,
  gmsaInitContainer,
  windowsNodeSelectorMissing,
  windowsNodeSelectorAffinityOnly,
  windowsTolerationMissing,
  wildcardToleration,
  linuxNodeSelectorMissing,
  runtimeclassHandler,
  runtimeclassReleaseMismatch,
  runtimeclassIsolationMismatch,
  windowsBuildRetired,
  windowsIsolationAnnotation,
  windowsBetaOsLabel,
  imageBuildMismatch,
  imageSac,
  imageBuildUnpinned,
  imageLegacyRepository,
  imageHostprocessOnly,
  imageNanoserverPowershell,
  imageNotFound,
  imageOsMissing,
  imageBuildUnavailable,
  imageSingleBuild,
  imageUnresolved,
  imageFloatingTag,
  windowsReleaseSupport,
  windowsHostNetwork,
  windowsHostPort,
  windowsHostPortCni,
  windowsEmptydirMemory,
  windowsVolumeDevices,
  windowsMountPropagation,
  windowsLinuxMountPath,
  windowsLinuxVolumeType,
  windowsNfsVolume,
  windowsDnsHostNet,
  memoryTooSmall,
  windowsMemoryRequestLimit,
  windowsHugepages,
  windowsTcpProbe,
  windowsStartupProbe,
  windowsServiceSessionAffinityTimeout,
  windowsServiceExternalTrafficLocal,
  podSecurityLevel,
  windowsNodePoolUntainted,
  windowsReleaseDeprecated,
  windowsReleaseUnpinned,
  windowsNodeMemory,
  eksWindowsAmiType,
  eksWindowsKubernetesVersion,
  eksWindowsDeprecatedRelease,
  eksWindowsTaintEffect,
  eksWindowsTaint,
  eksWindowsInstanceArch,
  eksWindowsDiskSize,
  eksWindowsAutoscalerTags,
  eksWindowsInstanceMemory,
  eksWindowsSystemReserved,
  eksWindowsLinuxNodeGroup,
  eksWindowsVpcResourceController,
  eksWindowsIpam,
  aksWindowsAgentPool,
  aksWindowsRelease,
  aksWindowsPoolName,
  aksWindowsPoolMode,
  aksWindowsPoolTaints,
  aksWindowsVmSize,
  aksWindowsCluster,
  aksWindowsProfile,
  aksWindowsCni,
  aksWindowsDataplane,
  aksWindowsNetworkPlugin,
  aksWindowsFips,
  aksWindowsPasswordPlaintext,
  gkeWindowsNodePool,
  gkeWindowsImageType,
  gkeWindowsRelease,
  gkeWindowsTaintEffect,
  gkeWindowsMachineType,
  gkeWindowsCluster,
  gkeWindowsAutopilot,
  gkeWindowsVpcNative,
  gkeWindowsLinuxPool,
  inputInvalidDocument,
  suppressionInvalid,
] as const;

/** The id of a rule that lives in a module. */
export type ModuleRuleId = (typeof RULE_MODULES)[number]['meta']['id'];

export * from './rule';
