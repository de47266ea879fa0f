/**
 * The gMSA credential spec as the cdk8s construct and the Pulumi component build it: the document model, the
 * builder and the format checks (./model/credspec-checks), each finding judged by the gmsa-credspec-* rule module
 * that declares its message (its rule id and severity, as lint gives them). The constructs render the document and
 * run the rule modules on the object they emit (`judgeEmittedCredentialSpec`), so they refuse what lint reports,
 * with its id, path and message.
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
import type { Rec } from './model/util';
import type { ValidationIssue, WindowsWarning } from './errors';
import { judgeObject } from './construct-rules';
import { inFrontDoorWords, type FrontDoor } from './rules/front-door';
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

/** A credspec a construct renders from its inputs, and the spellings it normalised on the way. */
export interface RenderedCredentialSpec {
  readonly credspec: CredentialSpecDocument;
  /**
   * The warnings of the rules' `normalised` case (a domain GUID in braces, a plugin GUID without), at prop paths: the
   * emitted document holds the normalised value, so only the builder can say what it changed.
   */
  readonly normalised: readonly CredspecProblem[];
}

/**
 * Renders a credspec from typed inputs for a construct to emit. Only what the builder normalised is reported here;
 * every problem of the result is found by the rule modules on the emitted object (`judgeEmittedCredentialSpec`).
 */
export function renderCredentialSpec(input: CredentialSpecInput): RenderedCredentialSpec {
  const { credspec, checks } = checkCredentialSpecInput(input);
  return { credspec, normalised: judged(checks.filter((c) => c.case === 'normalised')) };
}

/** The refusals and warnings of a construct about the GMSACredentialSpec object it is about to emit. */
export interface EmittedCredentialSpecFindings {
  readonly refusals: readonly ValidationIssue[];
  readonly warnings: readonly WindowsWarning[];
}

/**
 * Runs the rule modules the constructs run (`refusedByConstructs`) on the GMSACredentialSpec `object` a construct
 * is about to emit: an error is a refusal, anything else a warning, each with the id, path and message lint gives
 * for that object, and the fix in `door`'s words (the rule's front-door fix names the prop or arg to set).
 */
export function judgeEmittedCredentialSpec(object: Rec, door: FrontDoor): EmittedCredentialSpecFindings {
  const refusals: ValidationIssue[] = [];
  const warnings: WindowsWarning[] = [];
  for (const { error, ...finding } of judgeObject(object)) {
    const worded = inFrontDoorWords(finding, door);
    if (error) refusals.push(worded);
    else warnings.push(worded);
  }
  return { refusals, warnings };
}
