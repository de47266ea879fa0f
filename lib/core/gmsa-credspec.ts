/**
 * The gMSA credential spec as the cdk8s construct and the Pulumi component build it: the document model, the
 * builder and the format checks (./model/credspec-checks), each finding judged by the gmsa-credspec-* rule module
 * that declares its message (its rule id and severity, as lint gives them), so a builder refuses what lint reports.
 */
import {
  checkCredentialSpecInput,
  credentialSpecChecks,
  sidChecks as sidCheckFindings,
  type CredentialSpecDocument,
  type CredentialSpecInput,
  type CredspecCheckAt,
} from './model/credspec-checks';
import type { Finding } from './model/types';
import type * as CredspecRules from './rules/credspec-rules';
import type { CredspecRuleId } from './rules/credspec-rules';

export {
  CCG_PLUGIN_GUIDS,
  GMSA_API_GROUP,
  GMSA_API_VERSION,
  GMSA_CMS_PLUGIN,
  GMSA_CRD_NAME,
  GMSA_KIND,
  GMSA_RESOURCE,
  GMSA_USE_VERB,
  PORTABLE_CCG_VERSION,
  awsSecretsManagerHostAccount,
  azureKeyVaultHostAccount,
  type AwsSecretsManagerHostAccountOptions,
  type AzureKeyVaultHostAccountOptions,
  type CredentialSpecAccount,
  type CredentialSpecActiveDirectoryConfig,
  type CredentialSpecDocument,
  type CredentialSpecDomainJoinConfig,
  type CredentialSpecHostAccountConfig,
  type CredentialSpecInput,
  type GmsaAccount,
  type GmsaDomain,
  type GmsaHostAccountConfig,
} from './model/credspec-checks';
export type { CredspecRuleId };

/** One problem with a credspec: a finding of a credspec rule. */
export interface CredspecProblem extends Finding {
  readonly ruleId: CredspecRuleId;
  readonly severity: 'error' | 'warning';
  /** A prop path (`domain.sid`) for inputs, or `credspec.DomainJoinConfig.Sid` for documents. */
  readonly path: string;
}

/** The result of building a credspec: the document, the normalisations made, and the problems found. */
export interface BuiltCredentialSpec {
  readonly credspec: CredentialSpecDocument;
  /** Every problem, with prop paths (`domain.sid`, `accounts[1].scope`). Errors mean the document is unusable. */
  readonly problems: readonly CredspecProblem[];
}

/**
 * The credspec rules, loaded at the first check rather than at import: they read the checks through the engine's
 * model, and the constructs' import stays as cheap as the registry lets it.
 */
function rules(): typeof CredspecRules {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./rules/credspec-rules') as typeof CredspecRules;
}

const judged = (checks: readonly CredspecCheckAt[]): CredspecProblem[] => {
  const { judgeCredspecCheck } = rules();
  return checks.map((c) => judgeCredspecCheck(c));
};

/**
 * Builds a credspec from typed inputs and checks it. Unambiguous spellings are normalised and reported as
 * warnings (a domain GUID in braces, a plugin GUID without); everything else that is wrong is an error.
 */
export function buildCredentialSpec(input: CredentialSpecInput): BuiltCredentialSpec {
  const { credspec, checks } = checkCredentialSpecInput(input);
  return { credspec, problems: judged(checks) };
}

/**
 * Every problem with a credspec document, with paths under `prefix` (`credspec.DomainJoinConfig.Sid`). Never throws,
 * whatever the input. Pass the value of the object's top-level `credspec` key.
 */
export function credentialSpecProblems(credspec: unknown, prefix = 'credspec'): CredspecProblem[] {
  return judged(credentialSpecChecks(credspec, prefix));
}

/** The problems of a domain SID (an account SID, domain SID plus RID, is a warning: some vendor docs print that one). */
export function sidChecks(value: string, path = 'domain.sid'): CredspecProblem[] {
  return judged(sidCheckFindings(value).map((c) => ({ ...c, path })));
}
