/**
 * gmsa-credspec-accounts: New-CredentialSpec lists the primary account once per scope, by DNS name and by NetBIOS name (https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/manage-serviceaccounts#create-a-credential-spec).
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
    id: 'gmsa-credspec-accounts',
    family: 'gmsa',
    refusedByConstructs: true,
    defaultSeverity: 'warning',
    summary: 'The primary gMSA account is not listed twice, scoped by DNS name and by NetBIOS name.',
    rationale: 'New-CredentialSpec lists the account for both scopes; lookups by the missing scope fail.',
    docs: CREDSPEC,
    severityReason: 'Works until something looks the account up by the missing scope.',
  },
  messages: {
    accounts: {
      description:
        'ActiveDirectoryConfig.GroupManagedServiceAccounts lacks the primary account scoped by DNS name and by NetBIOS name.',
      message: '{message}',
      fix: '{fix}',
      frontDoorFixes: CREDSPEC_FRONT_DOOR_FIXES,
    },
  },
  check: {
    scope: 'object',
    kinds: ['GMSACredentialSpec'],
    run(obj, _context, report) {
      for (const p of credspecProblems(obj, 'accounts'))
        report({ path: p.path, messageId: 'accounts', data: { message: p.message, fix: p.fix } });
    },
  },
});
