/**
 * gmsa-credspec-account-sid: DomainJoinConfig.Sid is the domain SID (S-1-5-21-a-b-c); an account SID adds a RID (https://learn.microsoft.com/windows-server/identity/ad-ds/manage/understand-security-identifiers).
 * The content checks live in ../model/credspec-checks, shared with the GmsaCredentialSpec builders of cdk8s and Pulumi,
 * and the GmsaCredentialSpec constructs run this module on the object they emit (`refusedByConstructs`), so they
 * refuse with its id, path and message; the fix names the prop or arg the field was written from.
 */
import { credspecProblems } from '../model/credspecs';
import { CREDSPEC } from './docs';
import { CREDSPEC_FRONT_DOOR_FIXES } from './credspec-front-door';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gmsa-credspec-account-sid',
    family: 'gmsa',
    refusedByConstructs: true,
    defaultSeverity: 'warning',
    summary: 'DomainJoinConfig.Sid is an account SID, not the domain SID.',
    rationale: 'Some vendor docs put the gMSA account SID (with a trailing RID) where the domain SID belongs.',
    docs: CREDSPEC,
    severityReason: 'Works with some CCG plugins, fails lookups with others.',
  },
  messages: {
    'account-sid': {
      description: 'DomainJoinConfig.Sid holds an account SID (with a relative id) rather than the domain SID.',
      message: '{message}',
      fix: '{fix}',
      frontDoorFixes: CREDSPEC_FRONT_DOOR_FIXES,
    },
  },
  check: {
    scope: 'object',
    kinds: ['GMSACredentialSpec'],
    run(obj, _context, report) {
      for (const p of credspecProblems(obj, 'account-sid'))
        report({ path: p.path, messageId: 'account-sid', data: { message: p.message, fix: p.fix } });
    },
  },
});
