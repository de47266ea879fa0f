/**
 * windows-run-as-user-name: the API server's format of `windowsOptions.runAsUserName`, checked for every pod that
 * sets it (kube-apiserver validation.go `validateWindowsSecurityContextOptions`,
 * https://kubernetes.io/docs/tasks/configure-pod-container/configure-runasusername/).
 */
import { CONTAINER_ADMINISTRATOR, CONTAINER_USER, runAsUserNameProblems } from '../windows-options';
import { podWindowsOptions } from '../model/pod-windows-options';
import { isPlaceholder, join, own, show } from '../model/util';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-run-as-user-name',
    family: 'windows-options',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'windowsOptions.runAsUserName is not a valid Windows user name.',
    rationale:
      'The API server checks runAsUserName: no control characters, at most one backslash, a NetBIOS or DNS domain, a user part of 1-104 bytes without "/\\:;|=,+*?<>@[].',
    docs: 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-runasusername/',
    ...API_SERVER_REJECTS_POD,
  },
  messages: {
    'invalid-user-name': { description: 'A runAsUserName that is not a valid Windows user name.' },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: "Set `windows: { runAsUserName: 'ContainerUser' }` (or `'ContainerAdministrator'`).",
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      for (const { options, path } of podWindowsOptions(p)) {
        const user = own(options, 'runAsUserName');
        if (user === undefined || user === null || isPlaceholder(user)) continue;
        const problems = typeof user === 'string' ? runAsUserNameProblems(user) : ['runAsUserName must be a string.'];
        if (problems.length === 0) continue;
        const userPath = join(path, 'runAsUserName');
        report(
          userPath,
          `${userPath} ${show(user)}: Invalid value: ${problems.join(' ')}`,
          `Use '${CONTAINER_USER}', '${CONTAINER_ADMINISTRATOR}', or DOMAIN\\user with a NetBIOS or DNS domain.`,
          undefined,
          'invalid-user-name',
        );
      }
    },
  },
});
