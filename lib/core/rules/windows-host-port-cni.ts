/**
 * windows-host-port-cni: Windows maps host ports only through CNIs with the portMappings capability (win-bridge,
 * win-overlay, recent AWS vpc-bridge); many Windows CNI setups have none, and the pod runs either way
 * (https://kubernetes.io/docs/concepts/services-networking/windows-networking/). Split from windows-host-port, whose
 * id keeps the case the API server rejects.
 */
import { hostPorts } from '../model/pod-ports';
import { show } from '../model/util';
import { NETWORKING } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-host-port-cni',
    family: 'pod-features',
    refusedByConstructs: true,
    defaultSeverity: 'info',
    summary: 'hostPort on a Windows container that is not HostProcess.',
    rationale:
      'Windows maps host ports only through CNIs with the portMappings capability (win-bridge, win-overlay); with others nothing listens on the host port.',
    docs: NETWORKING,
    severityReason:
      'The pod runs either way; whether the host port answers depends on the CNI, which a manifest does not show.',
  },
  messages: {
    'host-port': {
      description: 'A hostPort on an ordinary Windows container, which depends on the CNI.',
      message:
        "{path} {hostPort}: on Windows a hostPort works only when the node's CNI maps ports (win-bridge or win-overlay with the portMappings capability); otherwise nothing listens on the host port.",
      fix: 'Check your Windows CNI supports port mappings, or expose the port through a Service (NodePort or LoadBalancer).',
    },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: 'Check your Windows CNI maps host ports, or drop `hostPort` and expose the port with `exposeViaService()`.',
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const { path, hostPort, hostProcess } of hostPorts(p)) {
        if (hostProcess) continue;
        report({ path, messageId: 'host-port', data: { hostPort: show(hostPort) } });
      }
    },
  },
});
