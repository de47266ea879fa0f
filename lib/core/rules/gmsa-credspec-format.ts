/**
 * gmsa-credspec-format: the credspec New-CredentialSpec writes has fixed formats (https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/manage-serviceaccounts); the CRD checks only types, so a malformed one fails when the container starts.
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
    id: 'gmsa-credspec-format',
    family: 'gmsa',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'A credspec field with the wrong format (CmsPlugins, Sid, Guid, NetBiosName, DNS names, accounts).',
    rationale:
      'The CRD schema only checks types; a malformed credspec is accepted and fails when the container starts.',
    docs: CREDSPEC,
    severityReason: 'The container fails to start with its identity.',
    cases: [
      {
        name: 'normalised',
        severity: 'warning',
        buildersOnly: true,
        when: 'A cdk8s or Pulumi builder wrote the domain GUID in braces: it is written without them, as credspecs hold it, and said so.',
      },
    ],
  },
  messages: {
    format: {
      description:
        'A credspec field whose value has the wrong format (the field and the format it needs are in the text).',
      message: '{message}',
      fix: '{fix}',
      frontDoorFixes: CREDSPEC_FRONT_DOOR_FIXES,
    },
  },
  check: {
    scope: 'object',
    kinds: ['GMSACredentialSpec'],
    run(obj, _context, report) {
      for (const p of credspecProblems(obj, 'format'))
        report({ path: p.path, messageId: 'format', data: { message: p.message, fix: p.fix } });
    },
  },
});
