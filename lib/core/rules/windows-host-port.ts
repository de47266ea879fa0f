/**
 * windows-host-port: HostProcess pods use the host network, and for hostNetwork pods the API server requires each
 * hostPort to equal its containerPort (kube-apiserver validation.go `validateHostNetwork`: "must match
 * `containerPort` when `hostNetwork` is true",
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go). A hostPort on an
 * ordinary Windows pod is the CNI advice of windows-host-port-cni.
 */
import { hostPorts } from '../model/pod-ports';
import { show } from '../model/util';
import { NETWORKING } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-host-port',
    family: 'pod-features',
    defaultSeverity: 'error',
    summary: 'A HostProcess hostPort that differs from its containerPort.',
    rationale:
      'HostProcess pods use the host network, where the API server requires every hostPort to equal its containerPort.',
    docs: NETWORKING,
    ...API_SERVER_REJECTS_POD,
    fixable: 'Sets hostPort to the containerPort.',
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      for (const { path, hostPort, containerPort, hostProcess } of hostPorts(p)) {
        if (!hostProcess || hostPort === containerPort) continue;
        report(
          path,
          `${path} ${show(hostPort)}: Invalid value: must match \`containerPort\` (${show(containerPort)}) when \`hostNetwork\` is true, as it is for HostProcess pods.`,
          `Set hostPort to ${show(containerPort)}, or remove it (the container listens on the host network anyway).`,
        );
      }
    },
  },
  fix: ({ diagnostic, pod }) => {
    const port = hostPorts(pod).find((x) => x.path === diagnostic.path && x.hostProcess);
    return typeof port?.containerPort === 'number'
      ? [{ op: 'set', path: diagnostic.path, value: port.containerPort }]
      : [];
  },
});
