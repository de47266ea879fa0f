/**
 * windows-host-network: Windows pods get the host network only as HostProcess pods; elsewhere `hostNetwork: true`
 * is admitted and ignored (https://kubernetes.io/docs/concepts/windows/intro/#compatibility-v1-pod).
 */
import { join } from '../model/util';
import { K8S_WINDOWS } from './docs';
import { defineRule } from './rule';
import { SOME_HOST_PROCESS, SPEC } from './cel-parts';

export default defineRule({
  meta: {
    id: 'windows-host-network',
    family: 'pod-features',
    refusedByConstructs: true,
    defaultSeverity: 'warning',
    summary: 'hostNetwork: true on a Windows pod that is not HostProcess.',
    rationale: 'Windows pods get host networking only as HostProcess pods; elsewhere hostNetwork: true is ignored.',
    docs: K8S_WINDOWS,
    severityReason:
      'The API server admits it and the pod runs, on the pod network instead of the host network it asked for.',
  },
  messages: {
    'host-network': {
      description: 'hostNetwork: true on an ordinary Windows pod.',
      message:
        '{path} true is ignored: Windows pods get the host network only as HostProcess pods, so this pod runs on the pod network.',
      fix: 'Remove hostNetwork, or make the pod HostProcess (securityContext.windowsOptions.hostProcess: true).',
    },
  },
  frontDoorFixes: {
    pulumi: () => ({ fix: 'Remove hostNetwork, or make the workload HostProcess (windows.hostProcess: true).' }),
    cdk8s: () => ({
      fix: 'Remove `hostNetwork: true`: only HostProcess pods use the host network; for a node agent use `WindowsHostProcessDaemonSet`.',
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows || p.hostProcess || p.spec.hostNetwork !== true) return;
      const path = join(p.path, 'hostNetwork');
      report({ path, messageId: 'host-network' });
    },
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression: `!variables.windows || !(has(${SPEC}.hostNetwork) && ${SPEC}.hostNetwork) || ${SOME_HOST_PROCESS}`,
        message: { messageId: 'host-network', data: { path: { text: 'hostNetwork' } } },
      },
    ],
  }),
});
