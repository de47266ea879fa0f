/**
 * The gMSA credential spec rules by the message each declares. The format checks of ../model/credspec-checks
 * (shared by the cdk8s and Pulumi builders and by these rules on manifests) name the message they report (`format`,
 * `account-sid`, ...); the rule module that declares it gives the finding its id and its severity (the default, or
 * that of a named case), so no check elsewhere says which rule it is or how bad.
 */
import gmsaCredspecAccountSid from './gmsa-credspec-account-sid';
import gmsaCredspecAccounts from './gmsa-credspec-accounts';
import gmsaCredspecFormat from './gmsa-credspec-format';
import gmsaHostAccountConfig from './gmsa-host-account-config';
import type { CredspecCase, CredspecCheckAt, CredspecMessageId } from '../model/credspec-checks';
import { caseSeverity, type RuleModule } from './rule';

const CREDSPEC_RULES = [gmsaCredspecFormat, gmsaCredspecAccountSid, gmsaCredspecAccounts, gmsaHostAccountConfig];

type CredspecRule = (typeof CREDSPEC_RULES)[number];

/** The id of a credential spec rule. */
export type CredspecRuleId = CredspecRule['meta']['id'];

/** The messages the rules declare: every message a check reports is one (`tsc` holds the two lists together). */
type DeclaredMessageId = {
  [R in CredspecRule as R['meta']['id']]: keyof NonNullable<R['messages']>;
}[CredspecRuleId];
type DeclaredCase = NonNullable<CredspecRule['meta']['cases']>[number]['name'];
type Declared<T extends DeclaredMessageId, U extends DeclaredCase> = [T, U];
/** Fails to compile when a check reports a message or case no credential spec rule declares. */
export type CredspecMessagesDeclared = Declared<CredspecMessageId, CredspecCase>;

let byMessage: ReadonlyMap<string, RuleModule> | undefined;

/** The rule that declares `messageId`, and the severity of its finding in `caseName` (else its default). */
export function credspecRuleOf(
  messageId: CredspecMessageId,
  caseName?: CredspecCase,
): { readonly ruleId: CredspecRuleId; readonly severity: 'error' | 'warning' } {
  byMessage ??= new Map(
    (CREDSPEC_RULES as readonly RuleModule[]).flatMap((r) => Object.keys(r.messages ?? {}).map((m) => [m, r] as const)),
  );
  const rule = byMessage.get(messageId);
  if (rule === undefined) throw new Error(`no credential spec rule declares message '${messageId}'`);
  const severity = caseSeverity(rule.meta, caseName) ?? rule.meta.defaultSeverity;
  if (severity !== 'error' && severity !== 'warning') {
    throw new Error(`credential spec rule ${rule.meta.id} reports at ${severity}, which a builder cannot show`);
  }
  return { ruleId: rule.meta.id as CredspecRuleId, severity };
}

/** A credspec check's finding, judged: the id and severity of the rule whose message it reports. */
export function judgeCredspecCheck(check: CredspecCheckAt): {
  readonly ruleId: CredspecRuleId;
  readonly severity: 'error' | 'warning';
  readonly path: string;
  readonly message: string;
  readonly fix?: string;
} {
  const { ruleId, severity } = credspecRuleOf(check.messageId, check.case);
  return {
    ruleId,
    severity,
    path: check.path,
    message: check.message,
    ...(check.fix !== undefined ? { fix: check.fix } : {}),
  };
}
