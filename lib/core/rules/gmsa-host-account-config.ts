/**
 * gmsa-host-account-config: nodes that are not domain-joined fetch the gMSA through a CCG plugin named by PluginGUID, reading PluginInput in its own format (https://learn.microsoft.com/virtualization/windowscontainers/manage-containers/manage-serviceaccounts#gmsa-for-non-domain-joined-container-hosts).
 * The content checks live in ../model/credspec-checks, shared with the GmsaCredentialSpec builders of cdk8s and Pulumi,
 * and the GmsaCredentialSpec constructs run this module on the object they emit (`refusedByConstructs`), so they
 * refuse with its id, path and message; the fix names the prop or arg the field was written from.
 */
import { credspecProblems } from '../model/credspecs';
import { GMSA_NON_DOMAIN } from './docs';
import { CREDSPEC_FRONT_DOOR_FIXES } from './credspec-front-door';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gmsa-host-account-config',
    family: 'gmsa',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'HostAccountConfig with a malformed PluginGUID or PluginInput.',
    rationale:
      'Non-domain-joined nodes fetch the gMSA through a CCG plugin; a wrong GUID or input format leaves the container without an identity.',
    docs: GMSA_NON_DOMAIN,
    severityReason: 'Non-domain-joined nodes cannot fetch the gMSA.',
    cases: [
      {
        name: 'normalised',
        severity: 'warning',
        buildersOnly: true,
        when: 'A cdk8s or Pulumi builder wrote the plugin GUID without braces: it is written in braces, as credspecs hold it, and said so.',
      },
    ],
  },
  messages: {
    'host-account-config': {
      description: 'A HostAccountConfig whose PluginGUID or PluginInput is malformed.',
      message: '{message}',
      fix: '{fix}',
      frontDoorFixes: CREDSPEC_FRONT_DOOR_FIXES,
    },
  },
  check: {
    scope: 'object',
    kinds: ['GMSACredentialSpec'],
    run(obj, _context, report) {
      for (const p of credspecProblems(obj, 'host-account-config')) {
        report({ path: p.path, messageId: 'host-account-config', data: { message: p.message, fix: p.fix } });
      }
    },
  },
});
