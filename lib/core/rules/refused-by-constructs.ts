/**
 * The rule modules the constructs run on what they emit (those whose `meta.refusedByConstructs` is true), in the
 * registry's order: a construct loads these, not the whole registry (`./index`, every module and its facts), so a
 * cdk8s app pays for 20 rules, not 107. A test holds this list equal to the registry's opted-in modules.
 */
import gmsaCredspecAccountSid from './gmsa-credspec-account-sid';
import gmsaCredspecAccounts from './gmsa-credspec-accounts';
import gmsaCredspecFormat from './gmsa-credspec-format';
import gmsaCredspecName from './gmsa-credspec-name';
import gmsaHostAccountConfig from './gmsa-host-account-config';
import gmsaInlineSpecSize from './gmsa-inline-spec-size';
import gmsaNameFormat from './gmsa-name-format';
import hostprocessRunAsNonRoot from './hostprocess-run-as-non-root';
import imageBuildMismatch from './image-build-mismatch';
import imageFloatingTag from './image-floating-tag';
import imageOsMissing from './image-os-missing';
import windowsDnsHostNet from './windows-dns-host-net';
import windowsEmptydirMemory from './windows-emptydir-memory';
import windowsForbiddenField from './windows-forbidden-field';
import windowsHostNetwork from './windows-host-network';
import windowsHostPort from './windows-host-port';
import windowsHostPortCni from './windows-host-port-cni';
import windowsMemoryRequestLimit from './windows-memory-request-limit';
import windowsMountPropagation from './windows-mount-propagation';
import windowsRunAsUserName from './windows-run-as-user-name';
import type { RuleModule } from './rule';

export const CONSTRUCT_RULE_MODULES = [
  windowsForbiddenField,
  windowsRunAsUserName,
  gmsaNameFormat,
  gmsaInlineSpecSize,
  hostprocessRunAsNonRoot,
  gmsaCredspecFormat,
  gmsaCredspecAccountSid,
  gmsaCredspecAccounts,
  gmsaHostAccountConfig,
  gmsaCredspecName,
  imageBuildMismatch,
  imageOsMissing,
  imageFloatingTag,
  windowsHostNetwork,
  windowsHostPort,
  windowsHostPortCni,
  windowsEmptydirMemory,
  windowsMountPropagation,
  windowsDnsHostNet,
  windowsMemoryRequestLimit,
] as readonly RuleModule[];
