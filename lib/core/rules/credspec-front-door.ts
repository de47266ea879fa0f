/**
 * The front-door fix of a credspec rule's finding: the `GmsaCredentialSpec` construct (cdk8s) and component (Pulumi)
 * run the gmsa-credspec-* rules on the object they emit, so a finding names a document field
 * (`credspec.DomainJoinConfig.Sid`); its fix names the prop or arg the builder wrote that field from (`domain.sid`).
 * Each credspec rule's messages declare it as their `frontDoorFixes`.
 */
import { credspecInputOf } from '../model/credspec-checks';
import type { FrontDoorFinding, FrontDoorFixes, FrontDoorText } from './rule';

/** The fix of `finding` in the words of a door whose inputs are called `noun` (`prop`, `arg`). */
function inInputWords(noun: 'prop' | 'arg', finding: FrontDoorFinding): FrontDoorText | undefined {
  const of = credspecInputOf(finding.path);
  if (of === undefined) return undefined;
  const where =
    of.accountField === undefined
      ? `the \`${of.input}\` ${noun}`
      : `the account's \`${of.accountField}\` in the \`${of.input}\` ${noun}`;
  const defaults = of.defaultsTo === undefined ? '' : ` (it defaults to ${quoted(of.defaultsTo)})`;
  const fix = finding.fix === undefined ? '.' : `: ${finding.fix}`;
  return { fix: `Set ${where}${defaults}${fix}` };
}

/** An input path in backquotes; a phrase or a literal as it is. */
const quoted = (s: string): string => (/^[a-z][\w.]*$/i.test(s) ? `\`${s}\`` : s);

/** The fixes of a credspec rule's messages in the cdk8s props' and the Pulumi args' words. */
export const CREDSPEC_FRONT_DOOR_FIXES: FrontDoorFixes = {
  cdk8s: (finding) => inInputWords('prop', finding),
  pulumi: (finding) => inInputWords('arg', finding),
};
