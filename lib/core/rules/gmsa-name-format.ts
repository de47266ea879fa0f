/**
 * gmsa-name-format: `windowsOptions.gmsaCredentialSpecName` names a GMSACredentialSpec object, so the API server
 * requires a lowercase DNS-1123 subdomain (kube-apiserver validation.go `validateWindowsSecurityContextOptions`,
 * https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/).
 */
import { gmsaCredentialSpecNameProblems } from '../windows-options';
import { podWindowsOptions } from '../model/pod-windows-options';
import { isPlaceholder, join, own, show } from '../model/util';
import { GMSA } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';

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
    'name-format': { description: 'A gmsaCredentialSpecName that is not a DNS-1123 subdomain.' },
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
        report(
          namePath,
          `${namePath} ${show(name)}: Invalid value: ${problems.join(' ')}`,
          typeof name === 'string'
            ? `Name the GMSACredentialSpec with a lowercase DNS-1123 subdomain, e.g. '${suggestion(name)}'.`
            : 'Write the GMSACredentialSpec name as a string.',
          undefined,
          'name-format',
        );
      }
    },
  },
});
