/**
 * The gMSA credential spec rules by the message each declares. The format checks of ../gmsa-credspec (shared by the
 * cdk8s and Pulumi builders and by these rules on manifests) name the message they report (`format`,
 * `account-sid`, ...); the rule module that declares it gives the finding its id and its severity (the default, or
 * that of a named case), so no check elsewhere says which rule it is or how bad.
 */
import gmsaCredspecAccountSid from './gmsa-credspec-account-sid';
import gmsaCredspecAccounts from './gmsa-credspec-accounts';
import gmsaCredspecFormat from './gmsa-credspec-format';
import gmsaHostAccountConfig from './gmsa-host-account-config';
import { caseSeverity, type RuleModule } from './rule';

const CREDSPEC_RULES = [gmsaCredspecFormat, gmsaCredspecAccountSid, gmsaCredspecAccounts, gmsaHostAccountConfig];

type CredspecRule = (typeof CREDSPEC_RULES)[number];

/** The id of a credential spec rule. */
export type CredspecRuleId = CredspecRule['meta']['id'];

/** A message a credential spec rule declares: what a format check reports. */
export type CredspecMessageId = {
  [R in CredspecRule as R['meta']['id']]: keyof NonNullable<R['messages']>;
}[CredspecRuleId];

/** The cases a credential spec rule names (`normalised`: a builder wrote an unambiguous spelling its own way). */
export type CredspecCase = NonNullable<CredspecRule['meta']['cases']>[number]['name'];

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
