/**
 * windows-host-port: for hostNetwork pods the API server requires each hostPort to equal its containerPort
 * (kube-apiserver validation.go `validateHostNetwork`: "must match `containerPort` when `hostNetwork` is true",
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go). HostProcess pods
 * use the host network; an ordinary Windows pod that says `hostNetwork: true` is held to the same rule by the API
 * server even though the Windows kubelet then ignores hostNetwork (windows-host-network). So is every other pod,
 * whatever its OS: a pod not known to be Windows (an empty `spec.os.name` and no other evidence, or a Linux pod) is
 * reported too, since the API server refuses it, but `fix` leaves it to the user (it changes Windows pods only). A
 * hostPort on an ordinary Windows pod without hostNetwork is the CNI advice of windows-host-port-cni.
 */
import type { PodFacts } from '../model/pod';
import { hostPorts } from '../model/pod-ports';
import { show } from '../model/util';
import { NETWORKING } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';
import { celContainerHostProcess, celContainerName, SPEC } from './cel-parts';

/** Whether the API server holds the container's ports to the host-network rule: HostProcess, or any pod with hostNetwork: true. */
function onHostNetwork(p: PodFacts, hostProcess: boolean): boolean {
  return hostProcess || p.spec.hostNetwork === true;
}

/** Whether `fix` sets the hostPort: on HostProcess containers and Windows pods only (it changes no other pod). */
function fixedByFix(p: PodFacts, hostProcess: boolean): boolean {
  return hostProcess || (p.windows && p.spec.hostNetwork === true);
}

const HOST_PORT_CDK8S_FIX =
  'Remove `hostPort` from the port (it defaults to the container port) or make it equal to `number`.';

export default defineRule({
  meta: {
    id: 'windows-host-port',
    family: 'pod-features',
    refusedByConstructs: true,
    defaultSeverity: 'error',
    summary: 'A hostPort that differs from its containerPort on a HostProcess or hostNetwork: true pod.',
    rationale:
      'On a hostNetwork pod (HostProcess pods are) the API server requires every hostPort to equal its containerPort.',
    docs: NETWORKING,
    ...API_SERVER_REJECTS_POD,
    fixable: 'Sets hostPort to the containerPort.',
  },
  messages: {
    'host-process': {
      description: 'A HostProcess pod, which uses the host network.',
      message:
        '{path} {hostPort}: Invalid value: must match `containerPort` ({containerPort}) when `hostNetwork` is true, as it is for HostProcess pods.',
      fix: 'Set hostPort to {containerPort}, or remove it (the container listens on the host network anyway).',
      frontDoorFixes: { cdk8s: () => ({ fix: HOST_PORT_CDK8S_FIX }) },
    },
    'host-network': {
      description:
        'An ordinary Windows pod that asks for hostNetwork: true (which Windows ignores outside HostProcess).',
      message:
        '{path} {hostPort}: Invalid value: must match `containerPort` ({containerPort}) when `hostNetwork` is true; the API server refuses the pod.',
      fix: 'Set hostPort to {containerPort}, or remove hostNetwork (Windows ignores it outside HostProcess pods).',
      frontDoorFixes: {
        cdk8s: () => ({
          fix: 'Make `hostPort` equal to `number` (or remove it), or remove `hostNetwork: true` (Windows ignores it outside HostProcess pods).',
        }),
      },
    },
    'not-windows': {
      description:
        'A pod not known to be Windows (an empty spec.os.name and no other evidence, or a Linux pod) with hostNetwork: true: the API server holds every pod to this. Reported, not fixed: fix changes Windows pods only.',
      message:
        '{path} {hostPort}: Invalid value: must match `containerPort` ({containerPort}) when `hostNetwork` is true; the API server refuses the pod, whatever its OS.',
      fix: "Set hostPort to {containerPort} or remove it (on the host network the container's port is the node's port anyway), or remove hostNetwork.",
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      for (const { path, hostPort, containerPort, hostProcess } of hostPorts(p)) {
        if (!onHostNetwork(p, hostProcess) || hostPort === containerPort) continue;
        if (hostProcess) {
          report({
            path,
            messageId: 'host-process',
            data: { hostPort: show(hostPort), containerPort: show(containerPort) },
          });
        } else if (p.windows) {
          report({
            path,
            messageId: 'host-network',
            data: { hostPort: show(hostPort), containerPort: show(containerPort) },
          });
        } else {
          report({
            path,
            messageId: 'not-windows',
            data: { hostPort: show(hostPort), containerPort: show(containerPort) },
          });
        }
      }
    },
  },
  fix: ({ diagnostic, pod }) => {
    const port = hostPorts(pod).find((x) => x.path === diagnostic.path && fixedByFix(pod, x.hostProcess));
    return typeof port?.containerPort === 'number'
      ? [{ op: 'set', path: diagnostic.path, value: port.containerPort }]
      : [];
  },
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // The ports held to the host-network rule (any pod's, Windows or not) whose hostPort differs from the
        // containerPort, for the message.
        name: 'whp_ports',
        expression: `variables.containers.filter(c, has(c.ports) && (${celContainerHostProcess('c')} || (has(${SPEC}.hostNetwork) && ${SPEC}.hostNetwork))).map(c, c.ports.filter(p, has(p.hostPort) && p.hostPort != 0 && !(has(p.containerPort) && p.hostPort == p.containerPort)).map(p, ${celContainerName('c')} + ' hostPort ' + string(p.hostPort) + ' (containerPort ' + (has(p.containerPort) ? string(p.containerPort) : 'unset') + ')' + (${celContainerHostProcess('c')} ? ', a HostProcess container' : ''))).filter(l, size(l) > 0).map(l, l.join(', '))`,
      },
    ],
    validations: [
      {
        expression: 'size(variables.whp_ports) == 0',
        messageExpression: `'windows-host-port: ' + variables.whp_ports.join(', ') + ': Invalid value: must match \`containerPort\` when \`hostNetwork\` is true (HostProcess pods use the host network); the API server refuses the pod. Set hostPort to the containerPort or remove it; for an ordinary Windows pod, remove hostNetwork (Windows ignores it outside HostProcess pods).'`,
      },
    ],
  }),
});
