/**
 * hostprocess-run-as-user-name: HostProcess containers run as a host account (NT AUTHORITY\SYSTEM,
 * NT AUTHORITY\Local service, NT AUTHORITY\NetworkService); the container accounts do not exist on the host
 * (https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/#choosing-a-user-account).
 */
import { CONTAINER_ADMINISTRATOR, CONTAINER_USER, HOST_PROCESS_USERS, isHostProcessUser } from '../windows-options';
import { join, rec, show } from '../model/util';
import { HOST_PROCESS } from './docs';
import { defineRule } from './rule';
import { celContainerHostProcess, celMatches, celOr, celPresent, re2Words, SPEC } from './cel-parts';
import { celString } from './cel';

const USER_PATH = ['securityContext', 'windowsOptions', 'runAsUserName'] as const;
/** The container accounts and the host accounts, as RE2 (Windows compares account names case-insensitively). */
const CONTAINER_ACCOUNT_RE2 = `(?i)^${re2Words([CONTAINER_USER, CONTAINER_ADMINISTRATOR])}$`;
const HOST_USER_RE2 = `(?i)^${re2Words(HOST_PROCESS_USERS)}$`;

const HOST_USERS_TEXT = HOST_PROCESS_USERS.join("', '");
/** The accounts that exist only inside containers, never on the host. */
const CONTAINER_ACCOUNTS = [CONTAINER_USER, CONTAINER_ADMINISTRATOR].map((u) => u.toLowerCase());
/** The fix of the CEL form's messages (the check words it the same). */
const FIX = `Set runAsUserName to one of '${HOST_USERS_TEXT}'.`;

export default defineRule({
  meta: {
    id: 'hostprocess-run-as-user-name',
    family: 'host-process',
    defaultSeverity: 'error',
    summary: 'A HostProcess container without a host account as runAsUserName.',
    rationale:
      'HostProcess containers run as a host account: NT AUTHORITY\\SYSTEM, NT AUTHORITY\\Local service or NT AUTHORITY\\NetworkService; the container accounts do not exist on the host.',
    docs: HOST_PROCESS,
    severityReason:
      'A container account does not exist on the host: the container cannot start. A missing or unlisted account is a warning.',
    cases: [
      {
        name: 'no-user',
        severity: 'warning',
        when: "No runAsUserName on the container or the pod: it runs as the image's default user, which the manifest does not show.",
      },
      {
        name: 'unlisted-account',
        severity: 'warning',
        when: 'An account other than the documented host accounts: a local users group works on recent Windows and containerd versions (not verified here), so it is not refused.',
      },
    ],
  },
  messages: {
    'no-user': {
      description: 'A HostProcess container with no runAsUserName, on it or on the pod.',
      message:
        "HostProcess container {path2} has no runAsUserName, so it runs as the image's default user instead of a chosen host account.",
      fix: '{fix}',
    },
    'container-account': {
      description:
        'A container account (ContainerUser, ContainerAdministrator) or a non-string, which the host does not have.',
      message:
        '{path} {user} is a container account, which does not exist on the host a HostProcess container runs on.',
      fix: '{fix}',
    },
    'unlisted-account': {
      description: 'An account other than the documented host accounts.',
      message: '{path} {user} is not one of the host accounts HostProcess containers are documented to run as.',
      fix: '{fix} A local users group works only on recent Windows and containerd versions.',
    },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: "Set `windows: { runAsUserName: 'NT AUTHORITY\\\\SYSTEM' }`, `'NT AUTHORITY\\\\Local service'` or `'NT AUTHORITY\\\\NetworkService'`.",
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.hostProcess) return;
      const podUser = rec(rec(p.spec, 'securityContext'), 'windowsOptions')?.runAsUserName;
      const podUserPath = join(p.path, 'securityContext.windowsOptions.runAsUserName');
      let podUserReported = false;
      const fix = `Set runAsUserName to one of '${HOST_USERS_TEXT}'.`;
      for (const c of p.containers) {
        if (!c.hostProcess) continue;
        const ownUser = rec(rec(c.c, 'securityContext'), 'windowsOptions')?.runAsUserName;
        const user = ownUser ?? podUser;
        const path = ownUser !== undefined ? join(c.path, 'securityContext.windowsOptions.runAsUserName') : podUserPath;
        // A pod-level user is judged once, not once per container that inherits it.
        if (ownUser === undefined && podUser !== undefined) {
          if (podUserReported) continue;
          podUserReported = true;
        }
        if (user === undefined || user === null) {
          report({
            path: join(c.path, 'securityContext.windowsOptions.runAsUserName'),
            messageId: 'no-user',
            data: { path2: c.path, fix },
            case: 'no-user',
          });
        } else if (typeof user !== 'string' || CONTAINER_ACCOUNTS.includes(user.toLowerCase())) {
          report({ path, messageId: 'container-account', data: { user: show(user), fix } });
        } else if (!isHostProcessUser(user)) {
          report({ path, messageId: 'unlisted-account', data: { user: show(user), fix }, case: 'unlisted-account' });
        }
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Each HostProcess container with the user it runs as (its own, else the pod's; '' for none).
        name: 'hpu_users',
        expression: `variables.containers.filter(c, ${celContainerHostProcess('c')}).map(c, {'container': string(c.name), 'user': string(${celOr(celOr("''", SPEC, ...USER_PATH), 'c', ...USER_PATH)}), 'set': string(${celPresent('c', ...USER_PATH)} || ${celPresent(SPEC, ...USER_PATH)})})`,
      },
    ],
    validations: [
      {
        expression: `!variables.hpu_users.exists(u, u.set == 'true' && ${celMatches('u.user', CONTAINER_ACCOUNT_RE2)})`,
        messageExpression: `'hostprocess-run-as-user-name: ' + variables.hpu_users.filter(u, u.set == 'true' && ${celMatches('u.user', CONTAINER_ACCOUNT_RE2)}).map(u, "container '" + u.container + "' runs as '" + u.user + "'").join(', ') + ', a container account, which does not exist on the host a HostProcess container runs on. ' + ${celString(FIX)}`,
      },
      {
        expression: `!variables.hpu_users.exists(u, u.set == 'false')`,
        messageExpression: `'hostprocess-run-as-user-name: HostProcess ' + variables.hpu_users.filter(u, u.set == 'false').map(u, "container '" + u.container + "'").join(', ') + " has no runAsUserName, so it runs as the image's default user instead of a chosen host account. " + ${celString(FIX)}`,
        case: 'no-user',
      },
      {
        expression: `!variables.hpu_users.exists(u, u.set == 'true' && !${celMatches('u.user', CONTAINER_ACCOUNT_RE2)} && !${celMatches('u.user', HOST_USER_RE2)})`,
        messageExpression: `'hostprocess-run-as-user-name: ' + variables.hpu_users.filter(u, u.set == 'true' && !${celMatches('u.user', CONTAINER_ACCOUNT_RE2)} && !${celMatches('u.user', HOST_USER_RE2)}).map(u, "container '" + u.container + "' runs as '" + u.user + "'").join(', ') + ', not one of the host accounts HostProcess containers are documented to run as. ' + ${celString(`${FIX} A local users group works only on recent Windows and containerd versions.`)}`,
        case: 'unlisted-account',
      },
    ],
  }),
});
