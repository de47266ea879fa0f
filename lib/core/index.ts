/**
 * k8s-windows core: the Windows model, the pod transforms, the rules, the engine and fix, with no framework
 * dependency and no I/O. Every front door (cdk8s, Pulumi, the CLI, the policy pack) builds on these; the package's
 * root entry (lib/index.ts) adds the registry client (lib/registry) beside them.
 *
 * Named exports where a module also holds what only the core uses: message fragments (`FORBIDDEN_DETAIL`,
 * `WINDOWS_ALTERNATIVE`, `BUILDLESS_TAG_FIX`), the validation regexes and `@internal` helpers stay in their modules.
 * The surface is recorded in api/index.api.md (`npm run api-report`).
 */
export * from './errors';
export * from './kube';
export * from './releases';
export {
  checkImageCompatibility,
  hostProcessOnlyImage,
  inferWindowsBuild,
  isHostProcessBaseImage,
  isServerCoreImage,
  isWindowsImage,
  legacyWindowsRepository,
  parseImageReference,
  windowsBuildCoverage,
  windowsTagStrength,
  type CompatibilityIsolation,
  type ImageBuild,
  type ImageCompatibility,
  type ImageReference,
  type WindowsTagStrength,
} from './images';
export * from './target';
export {
  FORBIDDEN_CONTAINER_SECURITY_FIELDS,
  FORBIDDEN_POD_FIELDS,
  FORBIDDEN_POD_SECURITY_FIELDS,
  FORBIDDEN_POD_SYSCTLS,
  POD_RESOURCES_REFUSED_FROM_MINOR,
  type ForbiddenContainerSecurityField,
  type ForbiddenPodField,
  type ForbiddenPodSecurityField,
} from './windows-fields';
export {
  CONTAINER_ADMINISTRATOR,
  CONTAINER_USER,
  HOST_PROCESS_USERS,
  MAX_GMSA_CREDENTIAL_SPEC_BYTES,
  gmsaCredentialSpecNameProblems,
  isDns1123Subdomain,
  isHostProcessUser,
  runAsUserNameProblems,
} from './windows-options';
export * from './workloads';
export {
  DEFAULT_HOST_PROCESS_USER,
  WINDOWS_IMAGE_PULL_POLICY,
  WINDOWS_STARTUP_PROBE,
  imageCompatibility,
  startupProbeFrom,
  toWindowsPodSpec,
  type FrameworkDefaults,
  type OptionWords,
  type ToWindowsPodSpecOptions,
  type WindowsSecurityProfile,
} from './pod-spec';
export * from './pod-security';
export {
  GMSA_API_GROUP,
  GMSA_API_VERSION,
  GMSA_KIND,
  GMSA_RESOURCE,
  GMSA_CRD_NAME,
  GMSA_USE_VERB,
  GMSA_CMS_PLUGIN,
  PORTABLE_CCG_VERSION,
  CCG_PLUGIN_GUIDS,
  azureKeyVaultHostAccount,
  awsSecretsManagerHostAccount,
  buildCredentialSpec,
  credentialSpecProblems,
  type CredentialSpecDocument,
  type CredentialSpecDomainJoinConfig,
  type CredentialSpecAccount,
  type CredentialSpecHostAccountConfig,
  type CredentialSpecActiveDirectoryConfig,
  type CredentialSpecInput,
  type GmsaDomain,
  type GmsaAccount,
  type GmsaHostAccountConfig,
  type AzureKeyVaultHostAccountOptions,
  type AwsSecretsManagerHostAccountOptions,
  type BuiltCredentialSpec,
  type CredspecProblem,
  type CredspecRuleId,
} from './gmsa-credspec';
export * from './validate';
export * from './fix';
export * from './config';
export * from './cloud-gates';
export {
  factCatalogue,
  factsDates,
  evaluationDate,
  checkEvaluationDate,
  lifecyclePhase,
  cloudReleaseState,
  cloudRetirementAt,
  hostRunsImage,
  hostsRunningImage,
  HOST_COMPATIBILITY,
  WINDOWS_RELEASE_FACTS,
  CLOUD_RELEASES,
  CLOUD_DEFAULT_RELEASES,
  type FactEntry,
  type FactSource,
  type Sourced,
  type LifecyclePhase,
  type ReleaseSupport,
  type CloudReleaseState,
  type CloudRetirement,
  type CloudReleaseFacts,
  type HostCompatibility,
  type WindowsReleaseFacts,
  type WindowsLifecycle,
} from './facts';
export * from './karpenter';
