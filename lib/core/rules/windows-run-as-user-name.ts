/**
 * windows-run-as-user-name: the API server's format of `windowsOptions.runAsUserName`, checked for every pod that
 * sets it (kube-apiserver validation.go `validateWindowsSecurityContextOptions`,
 * https://kubernetes.io/docs/tasks/configure-pod-container/configure-runasusername/).
 */
import {
  ACCOUNT_NAME_FORBIDDEN_CHARS,
  CONTAINER_ADMINISTRATOR,
  CONTAINER_USER,
  CONTROL_CHARS,
  DNS_LABEL,
  MAX_DOMAIN_BYTES,
  MAX_USER_BYTES,
  NETBIOS_DOMAIN_NAME,
  PERIODS_AND_SPACES,
  runAsUserNameProblems,
} from '../windows-options';
import { podWindowsOptions } from '../model/pod-windows-options';
import { isPlaceholder, join, own, PLACEHOLDER, show } from '../model/util';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';
import { celContainerName, celMatches, celPresent, re2DottedLabels, SPEC } from './cel-parts';
import { celString } from './cel';

const USER_PATH = ['securityContext', 'windowsOptions', 'runAsUserName'] as const;

/**
 * Whether the CEL string `u` is a runAsUserName the API server accepts (as runAsUserNameProblems finds none):
 * `DOMAIN\\user` split at its one backslash.
 */
function validUserName(u: string): string {
  const parts = `${u}.split('\\\\')`;
  const domain = `${parts}[0]`;
  const user = `${parts}[size(${parts}) - 1]`;
  return [
    `${u} != ''`,
    `!${celMatches(u, CONTROL_CHARS)}`,
    `size(${parts}) <= 2`,
    `(size(${parts}) == 1 || (bytes(${domain}).size() < ${MAX_DOMAIN_BYTES} && (${celMatches(domain, NETBIOS_DOMAIN_NAME)} || ${celMatches(domain, re2DottedLabels(DNS_LABEL))})))`,
    `${user} != ''`,
    `bytes(${user}).size() <= ${MAX_USER_BYTES}`,
    `!${celMatches(user, PERIODS_AND_SPACES)}`,
    `!${celMatches(user, ACCOUNT_NAME_FORBIDDEN_CHARS)}`,
  ].join(' && ');
}

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
    'invalid-user-name': {
      description: 'A runAsUserName that is not a valid Windows user name.',
      message: '{path} {user}: Invalid value: {value}',
      fix: "Use '{CONTAINER_USER}', '{CONTAINER_ADMINISTRATOR}', or DOMAIN\\user with a NetBIOS or DNS domain.",
    },
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
        report({
          path: userPath,
          messageId: 'invalid-user-name',
          data: { user: show(user), value: problems.join(' '), CONTAINER_USER, CONTAINER_ADMINISTRATOR },
        });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Each runAsUserName that is set and not a placeholder, as [where, value]: the pod's, then each container's.
        name: 'wrun_users',
        expression: `((${celPresent(SPEC, ...USER_PATH)} ? [['pod', string(${[SPEC, ...USER_PATH].join('.')})]] : []) + variables.containers.filter(c, ${celPresent('c', ...USER_PATH)}).map(c, [${celContainerName('c')}, string(${['c', ...USER_PATH].join('.')})])).filter(u, !${celMatches('u[1].trim()', PLACEHOLDER)})`,
      },
    ],
    validations: [
      {
        expression: `variables.wrun_users.all(u, ${validUserName('u[1]')})`,
        messageExpression: `'windows-run-as-user-name: ' + variables.wrun_users.filter(u, !(${validUserName('u[1]')})).map(u, u[0] + " securityContext.windowsOptions.runAsUserName '" + u[1] + "'").join(', ') + ${celString(`: Invalid value: not a Windows user name the API server accepts (no control characters, at most one backslash, a NetBIOS or DNS domain under ${MAX_DOMAIN_BYTES} bytes, a user part of 1-${MAX_USER_BYTES} bytes, not only periods and spaces, without " / \\ : ; | = , + * ? < > @ [ ]). Use '${CONTAINER_USER}', '${CONTAINER_ADMINISTRATOR}', or DOMAIN\\user with a NetBIOS or DNS domain.`)}`,
      },
    ],
  }),
});
