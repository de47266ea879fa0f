/**
 * hostprocess-run-as-non-root: the kubelet cannot verify runAsNonRoot for HostProcess containers and refuses to
 * start them (https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/).
 */
import { join, rec } from '../model/util';
import { HOST_PROCESS } from './docs';
import { defineRule } from './rule';
import { celContainerName, celPresent, SOME_HOST_PROCESS, SPEC } from './cel-parts';

export default defineRule({
  meta: {
    id: 'hostprocess-run-as-non-root',
    family: 'host-process',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'runAsNonRoot set on a HostProcess pod.',
    rationale:
      'The kubelet cannot verify runAsNonRoot for HostProcess containers and refuses to start them; leave it unset.',
    docs: HOST_PROCESS,
    severityReason: 'The kubelet refuses to start the container.',
  },
  messages: {
    'run-as-non-root': {
      description: 'runAsNonRoot: true on a HostProcess pod or container.',
      message:
        '{path} true on a HostProcess pod: the kubelet cannot verify runAsNonRoot for HostProcess containers and refuses to start them.',
      fix: 'Remove runAsNonRoot; choose the account with runAsUserName.',
    },
  },
  frontDoorFixes: {
    pulumi: () => ({ fix: 'Remove runAsNonRoot; choose the account with windows.runAsUserName.' }),
    cdk8s: () => ({
      fix: "Remove `securityContext: { ensureNonRoot }`; choose the account with `windows: { runAsUserName: 'NT AUTHORITY\\\\SYSTEM' }` (or Local service, NetworkService).",
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.hostProcess) return;
      const places: [string, unknown][] = [
        [join(p.path, 'securityContext.runAsNonRoot'), rec(p.spec, 'securityContext')?.runAsNonRoot],
      ];
      for (const c of p.containers) {
        places.push([join(c.path, 'securityContext.runAsNonRoot'), rec(c.c, 'securityContext')?.runAsNonRoot]);
      }
      for (const [path, value] of places) {
        if (value !== true) continue;
        report({ path, messageId: 'run-as-non-root' });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Where runAsNonRoot is true: the pod, then each container by name.
        name: 'hpnr_places',
        expression: `(${celPresent(SPEC, 'securityContext', 'runAsNonRoot')} && ${SPEC}.securityContext.runAsNonRoot ? ['pod securityContext.runAsNonRoot'] : []) + variables.containers.filter(c, ${celPresent('c', 'securityContext', 'runAsNonRoot')} && c.securityContext.runAsNonRoot).map(c, ${celContainerName('c')} + ' securityContext.runAsNonRoot')`,
      },
    ],
    validations: [
      {
        expression: `size(variables.hpnr_places) == 0 || !${SOME_HOST_PROCESS}`,
        messageExpression: `'hostprocess-run-as-non-root: ' + variables.hpnr_places.join(', ') + ' true on a HostProcess pod: the kubelet cannot verify runAsNonRoot for HostProcess containers and refuses to start them. Remove runAsNonRoot; choose the account with runAsUserName.'`,
      },
    ],
  }),
});
