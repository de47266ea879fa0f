/**
 * gmsa-init-container: the gMSA webhook expands gmsaCredentialSpecName into the credspec only for the pod and its
 * regular containers, not init containers, which then run without the identity
 * (https://github.com/kubernetes-sigs/windows-gmsa/blob/master/admission-webhook/webhook.go).
 */
import { join, rec, str } from '../model/util';
import { GMSA_NON_DOMAIN } from './docs';
import { defineRule } from './rule';
import { celPresent, SPEC } from './cel-parts';

/** Whether container `c` names a credspec, in CEL. */
const NAMED = (c: string): string => celPresent(c, 'securityContext', 'windowsOptions', 'gmsaCredentialSpecName');

export default defineRule({
  meta: {
    id: 'gmsa-init-container',
    family: 'gmsa',
    defaultSeverity: 'warning',
    summary: 'gmsaCredentialSpecName on an init container.',
    rationale: 'The gMSA webhook does not expand init containers: they run without the gMSA identity.',
    docs: GMSA_NON_DOMAIN,
    severityReason: 'The init container runs, without the identity it was given.',
  },
  messages: {
    'init-container': {
      description: 'gmsaCredentialSpecName on an init container.',
      message:
        "{path} '{n}' is on an init container, which the gMSA webhook does not expand: it runs without the gMSA identity.",
      fix: 'Move the Active Directory work into a regular container, or accept that the init container runs without gMSA.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      for (const c of p.containers) {
        if (c.list !== 'initContainers') continue;
        const n = str(rec(rec(c.c, 'securityContext'), 'windowsOptions'), 'gmsaCredentialSpecName');
        if (n === undefined) continue;
        const path = join(c.path, 'securityContext.windowsOptions.gmsaCredentialSpecName');
        report({ path, messageId: 'init-container', data: { n } });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression: `!has(${SPEC}.initContainers) || !${SPEC}.initContainers.exists(c, ${NAMED('c')})`,
        messageExpression: `'gmsa-init-container: ' + ${SPEC}.initContainers.filter(c, ${NAMED('c')}).map(c, "init container '" + c.name + "' securityContext.windowsOptions.gmsaCredentialSpecName '" + c.securityContext.windowsOptions.gmsaCredentialSpecName + "'").join(', ') + ' is on an init container, which the gMSA webhook does not expand: it runs without the gMSA identity. Move the Active Directory work into a regular container, or accept that the init container runs without gMSA.'`,
      },
    ],
  }),
});
