/**
 * hostprocess-mismatch: the API server requires a container's windowsOptions.hostProcess to equal the pod's when
 * both are set (kube-apiserver validation.go `validateWindowsHostProcessPod`, checked for every pod whatever its OS,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go).
 */
import { join, rec, show } from '../model/util';
import { HOST_PROCESS } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';
import { celContainerName, celPresent, SPEC } from './cel-parts';

const HOST_PROCESS_PATH = ['securityContext', 'windowsOptions', 'hostProcess'] as const;

export default defineRule({
  meta: {
    id: 'hostprocess-mismatch',
    family: 'host-process',
    defaultSeverity: 'error',
    summary: "A container's windowsOptions.hostProcess differs from the pod's.",
    rationale: 'The API server requires the pod and container values to be identical when both are set.',
    docs: HOST_PROCESS,
    ...API_SERVER_REJECTS_POD,
  },
  messages: {
    mismatch: {
      description: "A container's hostProcess setting differs from the pod's.",
      message:
        '{path} {own}: Invalid value: pod hostProcess value must be identical if both are specified, was {podValue}.',
      fix: "Remove the container's hostProcess (it inherits the pod's {podValue}), or set it to {podValue}.",
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      const podValue = rec(rec(p.spec, 'securityContext'), 'windowsOptions')?.hostProcess;
      if (typeof podValue !== 'boolean') return;
      for (const c of p.containers) {
        const own = rec(rec(c.c, 'securityContext'), 'windowsOptions')?.hostProcess;
        if (typeof own !== 'boolean' || own === podValue) continue;
        const path = join(c.path, 'securityContext.windowsOptions.hostProcess');
        report({ path, messageId: 'mismatch', data: { own: show(own), podValue } });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The containers whose own hostProcess differs from the pod's (both set).
        name: 'hpm_differ',
        expression: `${celPresent(SPEC, ...HOST_PROCESS_PATH)} ? variables.containers.filter(c, ${celPresent('c', ...HOST_PROCESS_PATH)} && ${['c', ...HOST_PROCESS_PATH].join('.')} != ${[SPEC, ...HOST_PROCESS_PATH].join('.')}) : []`,
      },
    ],
    validations: [
      {
        expression: 'size(variables.hpm_differ) == 0',
        messageExpression: `'hostprocess-mismatch: ' + variables.hpm_differ.map(c, ${celContainerName('c')} + ' securityContext.windowsOptions.hostProcess ' + string(c.securityContext.windowsOptions.hostProcess)).join(', ') + ': Invalid value: pod hostProcess value must be identical if both are specified, was ' + string(${[SPEC, ...HOST_PROCESS_PATH].join('.')}) + ". Remove the container's hostProcess (it inherits the pod's), or set it to the pod's value."`,
      },
    ],
  }),
});
