/**
 * The registry of rule modules, in catalogue order within each family. A rule is found by its id: its module is
 * `./<rule-id>.ts`. The rules not yet moved into modules still sit in ../validate/rules.ts and ../validate/checks/
 * (issue 14 moves them family by family); `RULES` lists both.
 */
import gmsaInlineSpecSize from './gmsa-inline-spec-size';
import gmsaNameFormat from './gmsa-name-format';
import hostprocessAllOrNone from './hostprocess-all-or-none';
import hostprocessHostNetwork from './hostprocess-host-network';
import hostprocessMismatch from './hostprocess-mismatch';
import hostprocessRunAsNonRoot from './hostprocess-run-as-non-root';
import hostprocessRunAsUserName from './hostprocess-run-as-user-name';
import imageBuildMismatch from './image-build-mismatch';
import imageBuildUnpinned from './image-build-unpinned';
import imageFloatingTag from './image-floating-tag';
import imageLegacyRepository from './image-legacy-repository';
import imageSac from './image-sac';
import podSecurityLevel from './pod-security-level';
import windowsDnsHostNet from './windows-dns-host-net';
import windowsEmptydirMemory from './windows-emptydir-memory';
import windowsForbiddenField from './windows-forbidden-field';
import windowsHostNetwork from './windows-host-network';
import windowsHostPort from './windows-host-port';
import windowsHostPortCni from './windows-host-port-cni';
import windowsHugepages from './windows-hugepages';
import windowsLinuxMountPath from './windows-linux-mount-path';
import windowsLinuxOnlyField from './windows-linux-only-field';
import windowsLinuxVolumeType from './windows-linux-volume-type';
import windowsMemoryRequestLimit from './windows-memory-request-limit';
import windowsMountPropagation from './windows-mount-propagation';
import windowsNfsVolume from './windows-nfs-volume';
import windowsOptionsOnLinuxPod from './windows-options-on-linux-pod';
import windowsOsName from './windows-os-name';
import windowsOsUnset from './windows-os-unset';
import windowsReleaseSupport from './windows-release-support';
import windowsRunAsUserName from './windows-run-as-user-name';
import windowsServiceExternalTrafficLocal from './windows-service-external-traffic-local';
import windowsServiceSessionAffinityTimeout from './windows-service-session-affinity-timeout';
import windowsStartupProbe from './windows-startup-probe';
import windowsTcpProbe from './windows-tcp-probe';
import windowsVolumeDevices from './windows-volume-devices';

export const RULE_MODULES = [
  windowsForbiddenField,
  windowsLinuxOnlyField,
  windowsOsName,
  windowsOptionsOnLinuxPod,
  windowsOsUnset,
  windowsRunAsUserName,
  gmsaNameFormat,
  gmsaInlineSpecSize,
  hostprocessMismatch,
  hostprocessAllOrNone,
  hostprocessHostNetwork,
  hostprocessRunAsUserName,
  hostprocessRunAsNonRoot,
  imageBuildMismatch,
  imageSac,
  imageBuildUnpinned,
  imageLegacyRepository,
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
  windowsMemoryRequestLimit,
  windowsHugepages,
  windowsTcpProbe,
  windowsStartupProbe,
  windowsServiceSessionAffinityTimeout,
  windowsServiceExternalTrafficLocal,
  podSecurityLevel,
] as const;

/** The id of a rule that lives in a module. */
export type ModuleRuleId = (typeof RULE_MODULES)[number]['meta']['id'];

export * from './rule';
