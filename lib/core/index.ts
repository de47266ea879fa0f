/**
 * k8s-windows core: the Windows model, the pod transforms, the rules, the engine and fix, with no framework
 * dependency and no I/O. Every front door (cdk8s, Pulumi, the CLI, the policy pack) builds on these; the package's
 * root entry (lib/index.ts) adds the registry client (lib/registry) beside them.
 */
export * from './errors';
export * from './kube';
export * from './releases';
export * from './images';
export * from './target';
export * from './windows-fields';
export * from './windows-options';
export * from './workloads';
export * from './pod-spec';
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
