/**
 * hostprocess-all-or-none: when one container is HostProcess, the API server requires every container (init and
 * ephemeral included) to be (kube-apiserver validation.go `validateWindowsHostProcessPod`,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go).
 */
import { HOST_PROCESS } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';
import { celContainerHostProcess, celContainerName, SOME_HOST_PROCESS } from './cel-parts';

export default defineRule({
  meta: {
    id: 'hostprocess-all-or-none',
    family: 'host-process',
    defaultSeverity: 'error',
    summary: 'A pod mixes HostProcess and non-HostProcess containers.',
    rationale: 'The API server requires every container (init and ephemeral included) to be HostProcess when one is.',
    docs: HOST_PROCESS,
    ...API_SERVER_REJECTS_POD,
  },
  messages: {
    mixed: {
      description: 'Some containers are HostProcess and others not.',
      message:
        '{path}: Invalid value: If pod contains any hostProcess containers then all containers must be HostProcess containers; not HostProcess: {value}.',
      fix: 'Set securityContext.windowsOptions.hostProcess: true at pod level so every container, init containers included, inherits it.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.hostProcess) return;
      const others = p.containers.filter((c) => !c.hostProcess);
      if (others.length === 0) return;
      report({ path: p.path, messageId: 'mixed', data: { value: others.map((c) => c.path).join(', ') } });
    },
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression: `variables.containers.all(c, ${celContainerHostProcess('c')}) || !${SOME_HOST_PROCESS}`,
        messageExpression: `'hostprocess-all-or-none: If pod contains any hostProcess containers then all containers must be HostProcess containers; not HostProcess: ' + variables.containers.filter(c, !${celContainerHostProcess('c')}).map(c, ${celContainerName('c')}).join(', ') + '. Set securityContext.windowsOptions.hostProcess: true at pod level so every container, init containers included, inherits it.'`,
      },
    ],
  }),
});
