/**
 * HostProcess rules. The first three are the API server's `validateWindowsHostProcessPod`, checked for every pod
 * whatever its OS (validation.go); the user and runAsNonRoot rules are the kubelet's and containerd's (https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/).
 */
import { CONTAINER_ADMINISTRATOR, CONTAINER_USER, HOST_PROCESS_USERS, isHostProcessUser } from '../../windows-options';
import type { FixerTable } from '../fixes';
import type { PodFacts } from '../pod';
import type { Report } from '../report';
import { join, rec, show } from '../util';

const HOST_USERS_TEXT = HOST_PROCESS_USERS.join("', '");
/** The accounts that exist only inside containers, never on the host. */
const CONTAINER_ACCOUNTS = [CONTAINER_USER, CONTAINER_ADMINISTRATOR].map((u) => u.toLowerCase());

function windowsOptions(sc: unknown): Record<string, unknown> | undefined {
  return rec(sc, 'windowsOptions');
}

export function checkHostProcess(p: PodFacts, report: Report): void {
  const podOptions = windowsOptions(rec(p.spec, 'securityContext'));
  const podValue = typeof podOptions?.hostProcess === 'boolean' ? podOptions.hostProcess : undefined;
  for (const c of p.containers) {
    const own = windowsOptions(rec(c.c, 'securityContext'))?.hostProcess;
    if (podValue !== undefined && typeof own === 'boolean' && own !== podValue) {
      const path = join(c.path, 'securityContext.windowsOptions.hostProcess');
      report(
        'hostprocess-mismatch',
        path,
        `${path} ${show(own)}: Invalid value: pod hostProcess value must be identical if both are specified, was ${podValue}.`,
        `Remove the container's hostProcess (it inherits the pod's ${podValue}), or set it to ${podValue}.`,
      );
    }
  }
  if (!p.hostProcess) return;

  const others = p.containers.filter((c) => !c.hostProcess);
  if (others.length > 0) {
    report(
      'hostprocess-all-or-none',
      p.path,
      `${p.path}: Invalid value: If pod contains any hostProcess containers then all containers must be HostProcess containers; not HostProcess: ${others.map((c) => c.path).join(', ')}.`,
      'Set securityContext.windowsOptions.hostProcess: true at pod level so every container, init containers included, inherits it.',
    );
  }
  if (p.spec.hostNetwork !== true) {
    const path = join(p.path, 'hostNetwork');
    report(
      'hostprocess-host-network',
      path,
      `${path} ${show(p.spec.hostNetwork ?? false)}: Invalid value: hostNetwork must be true if pod contains any hostProcess containers.`,
      'Set hostNetwork: true.',
    );
  }

  const podUser = podOptions?.runAsUserName;
  const podUserPath = join(p.path, 'securityContext.windowsOptions.runAsUserName');
  let podUserReported = false;
  for (const c of p.containers.filter((x) => x.hostProcess)) {
    const ownUser = windowsOptions(rec(c.c, 'securityContext'))?.runAsUserName;
    const user = ownUser ?? podUser;
    const path = ownUser !== undefined ? join(c.path, 'securityContext.windowsOptions.runAsUserName') : podUserPath;
    if (ownUser === undefined && podUser !== undefined) {
      if (podUserReported) continue;
      podUserReported = true;
    }
    const fix = `Set runAsUserName to one of '${HOST_USERS_TEXT}'.`;
    if (user === undefined || user === null) {
      report(
        'hostprocess-run-as-user-name',
        join(c.path, 'securityContext.windowsOptions.runAsUserName'),
        `HostProcess container ${c.path} has no runAsUserName, so it runs as the image's default user instead of a chosen host account.`,
        fix,
        'warning',
      );
    } else if (typeof user !== 'string' || CONTAINER_ACCOUNTS.includes(user.toLowerCase())) {
      report(
        'hostprocess-run-as-user-name',
        path,
        `${path} ${show(user)} is a container account, which does not exist on the host a HostProcess container runs on.`,
        fix,
      );
    } else if (!isHostProcessUser(user)) {
      // Local groups are said to work in newer versions (unverified): warn instead of refusing.
      report(
        'hostprocess-run-as-user-name',
        path,
        `${path} ${show(user)} is not one of the host accounts HostProcess containers are documented to run as.`,
        `${fix} A local users group works only on recent Windows and containerd versions.`,
        'warning',
      );
    }
  }

  const nonRoot: [string, unknown][] = [
    [join(p.path, 'securityContext.runAsNonRoot'), rec(p.spec, 'securityContext')?.runAsNonRoot],
  ];
  for (const c of p.containers)
    nonRoot.push([join(c.path, 'securityContext.runAsNonRoot'), rec(c.c, 'securityContext')?.runAsNonRoot]);
  for (const [path, v] of nonRoot) {
    if (v !== true) continue;
    report(
      'hostprocess-run-as-non-root',
      path,
      `${path} true on a HostProcess pod: the kubelet cannot verify runAsNonRoot for HostProcess containers and refuses to start them.`,
      'Remove runAsNonRoot; choose the account with runAsUserName.',
    );
  }
}

/** The API server requires hostNetwork on HostProcess pods: set it. */
export const HOST_PROCESS_FIXES: FixerTable = {
  'hostprocess-host-network': ({ diagnostic }) => [{ op: 'set', path: diagnostic.path, value: true }],
};
