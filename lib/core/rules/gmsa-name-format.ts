/**
 * gmsa-name-format: `windowsOptions.gmsaCredentialSpecName` names a GMSACredentialSpec object, so the API server
 * requires a lowercase DNS-1123 subdomain (kube-apiserver validation.go `validateWindowsSecurityContextOptions`,
 * https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/).
 */
import { DNS1123_LABEL, DNS1123_SUBDOMAIN_MAX_LENGTH, gmsaCredentialSpecNameProblems } from '../windows-options';
import { podWindowsOptions } from '../model/pod-windows-options';
import { isPlaceholder, join, own, PLACEHOLDER, show } from '../model/util';
import { GMSA } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';
import { celContainerName, celMatches, celPresent, re2DottedLabels, SPEC } from './cel-parts';
import { celString } from './cel';

const NAME_PATH = ['securityContext', 'windowsOptions', 'gmsaCredentialSpecName'] as const;
/** Whether the CEL string `n` is a lowercase RFC 1123 subdomain (isDns1123Subdomain). */
const VALID_NAME = (n: string): string =>
  `size(${n}) <= ${DNS1123_SUBDOMAIN_MAX_LENGTH} && ${celMatches(n, re2DottedLabels(DNS1123_LABEL))}`;

/** A lowercase DNS-1123 name made from what the user wrote, for the fix. */
function suggestion(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '') || 'webapp-gmsa'
  );
}

export default defineRule({
  meta: {
    id: 'gmsa-name-format',
    family: 'windows-options',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'windowsOptions.gmsaCredentialSpecName is not a DNS-1123 subdomain.',
    rationale: 'It names a GMSACredentialSpec object, so the API server requires a lowercase DNS-1123 subdomain.',
    docs: GMSA,
    ...API_SERVER_REJECTS_POD,
  },
  messages: {
    'name-format': {
      description: 'A gmsaCredentialSpecName that is not a DNS-1123 subdomain.',
      message: '{path} {name}: Invalid value: {value}',
      fix: '{fix}',
    },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: 'Pass `windows: { gmsa }` the `GMSACredentialSpec` name, or the `GmsaCredentialSpec` construct.',
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      for (const { options, path } of podWindowsOptions(p)) {
        const name = own(options, 'gmsaCredentialSpecName');
        if (name === undefined || name === null || isPlaceholder(name)) continue;
        const problems =
          typeof name === 'string'
            ? gmsaCredentialSpecNameProblems(name)
            : ['gmsaCredentialSpecName must be a string.'];
        if (problems.length === 0) continue;
        const namePath = join(path, 'gmsaCredentialSpecName');
        report({
          path: namePath,
          messageId: 'name-format',
          data: {
            name: show(name),
            value: problems.join(' '),
            fix:
              typeof name === 'string'
                ? `Name the GMSACredentialSpec with a lowercase DNS-1123 subdomain, e.g. '${suggestion(name)}'.`
                : 'Write the GMSACredentialSpec name as a string.',
          },
        });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Each gmsaCredentialSpecName that is set and not a placeholder, as [where, value].
        name: 'gnf_names',
        expression: `((${celPresent(SPEC, ...NAME_PATH)} ? [['pod', string(${[SPEC, ...NAME_PATH].join('.')})]] : []) + variables.containers.filter(c, ${celPresent('c', ...NAME_PATH)}).map(c, [${celContainerName('c')}, string(${['c', ...NAME_PATH].join('.')})])).filter(n, !${celMatches('n[1].trim()', PLACEHOLDER)})`,
      },
    ],
    validations: [
      {
        expression: `variables.gnf_names.all(n, ${VALID_NAME('n[1]')})`,
        messageExpression: `'gmsa-name-format: ' + variables.gnf_names.filter(n, !(${VALID_NAME('n[1]')})).map(n, n[0] + " securityContext.windowsOptions.gmsaCredentialSpecName '" + n[1] + "'").join(', ') + ${celString(`: Invalid value: must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-', '.'; at most ${DNS1123_SUBDOMAIN_MAX_LENGTH} characters). Name the GMSACredentialSpec with a lowercase DNS-1123 subdomain.`)}`,
      },
    ],
  }),
});
