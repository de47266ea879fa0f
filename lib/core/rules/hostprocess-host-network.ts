/**
 * hostprocess-host-network: the API server requires hostNetwork: true on a pod with HostProcess containers
 * (kube-apiserver validation.go `validateWindowsHostProcessPod`: "hostNetwork must be true if pod contains any
 * hostProcess containers", https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go).
 */
import { join, show } from '../model/util';
import { HOST_PROCESS } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';
import { SOME_HOST_PROCESS, SPEC } from './cel-parts';

export default defineRule({
  meta: {
    id: 'hostprocess-host-network',
    family: 'host-process',
    defaultSeverity: 'error',
    summary: 'A HostProcess pod without hostNetwork: true.',
    rationale: 'The API server requires hostNetwork: true on pods with HostProcess containers.',
    docs: HOST_PROCESS,
    ...API_SERVER_REJECTS_POD,
    fixable: 'Sets hostNetwork: true.',
  },
  messages: {
    'no-host-network': {
      description: 'A HostProcess pod without hostNetwork: true.',
      message:
        '{path} {hostNetwork}: Invalid value: hostNetwork must be true if pod contains any hostProcess containers.',
      fix: 'Set hostNetwork: true.',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.hostProcess || p.spec.hostNetwork === true) return;
      const path = join(p.path, 'hostNetwork');
      report({ path, messageId: 'no-host-network', data: { hostNetwork: show(p.spec.hostNetwork ?? false) } });
    },
  },
  fix: ({ diagnostic }) => [{ op: 'set', path: diagnostic.path, value: true }],
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression: `(has(${SPEC}.hostNetwork) && ${SPEC}.hostNetwork) || !${SOME_HOST_PROCESS}`,
        message: {
          messageId: 'no-host-network',
          data: {
            path: { text: 'hostNetwork' },
            hostNetwork: `string(has(${SPEC}.hostNetwork) && ${SPEC}.hostNetwork)`,
          },
        },
      },
    ],
  }),
});
