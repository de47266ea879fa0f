/**
 * The `k8s-windows` entry: what a program needs to check, fix or build Windows pods without a framework — the rule
 * engine (`validateManifests`, `RULES`), `fixManifests`, the pod transform and scheduling contract
 * (`toWindowsPodSpec`, `windowsNodeTarget`), image, Pod Security, gMSA and Karpenter helpers, and the registry client
 * that looks images up (`ImageResolver`, from lib/registry beside the pure core).
 *
 * Named exports only, picked from lib/core (its own index is the core's internal barrel, not an entry) and
 * lib/registry; the facts tables have their own entry (`k8s-windows/facts`, lib/facts.ts). Everything else is
 * internal: our tests, scripts and bench import it by relative path. The surface is recorded in api/index.api.md
 * (`npm run api-report`); a test holds the package's total under a ceiling.
 */

// The rule engine
export {
  loadManifests,
  RULES,
  validateManifests,
  type Diagnostic,
  type RuleId,
  type RuleInfo,
  type Severity,
  type ValidateOptions,
} from './core';
export { loadConfig } from './core';

// Fix
export {
  fixManifests,
  fixManifestSet,
  type FixChange,
  type FixOptions,
  type FixResult,
  type FixSetResult,
} from './core';

// Images as registries see them (the engine's `options.images`)
export { type ImageLookupCause, type ImageLookups } from './core';
export { ImageResolver, resolveImageLookups, type ImageResolverOptions } from './registry';

// Errors and warnings of the transforms and constructs
export { WindowsValidationError, type ValidationIssue, type WindowsWarning } from './core';

// The Windows model: releases, scheduling, the pod transform
export {
  schedulingFor,
  toWindowsPodSpec,
  WINDOWS_RELEASES,
  windowsNodeTarget,
  type Taint,
  type ToWindowsPodSpecOptions,
  type WindowsNodeTarget,
  type WindowsNodeTargetOptions,
  type WindowsRelease,
} from './core';

// Images, Pod Security, gMSA, Karpenter
export { checkImageCompatibility, parseImageReference, type ImageCompatibility, type ImageReference } from './core';
export { podSecurityLevel, type PodSecurityLevel } from './core';
export {
  awsSecretsManagerHostAccount,
  azureKeyVaultHostAccount,
  buildCredentialSpec,
  type CredentialSpecInput,
} from './core';
export { windowsKarpenterManifests, type WindowsKarpenterOptions } from './core';
