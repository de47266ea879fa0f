/**
 * windows-dns-host-net: outside HostProcess a Windows pod has no host network, so `ClusterFirstWithHostNet` gives it
 * cluster DNS as ClusterFirst does (https://kubernetes.io/docs/concepts/services-networking/windows-networking/).
 */
import { join } from '../model/util';
import { NETWORKING } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-dns-host-net',
    family: 'pod-features',
    refusedByConstructs: true,
    defaultSeverity: 'info',
    summary: 'dnsPolicy: ClusterFirstWithHostNet on a Windows pod that is not HostProcess.',
    rationale:
      'Windows pods have no host network outside HostProcess, so the policy has no effect: the kubelet gives the pod cluster DNS, as ClusterFirst does. Vendors (Splunk, vSphere CSI) ship it on Windows DaemonSets.',
    docs: NETWORKING,
    severityReason: 'The pod gets cluster DNS as with ClusterFirst; the setting is only misleading.',
  },
  messages: {
    'host-net-dns': {
      description: 'dnsPolicy: ClusterFirstWithHostNet on an ordinary Windows pod.',
      message:
        "{path} 'ClusterFirstWithHostNet' means nothing on a Windows pod outside HostProcess: it has no host network, and the kubelet gives it cluster DNS as with ClusterFirst.",
      fix: "Use dnsPolicy 'ClusterFirst' (the default), or make the pod HostProcess if it needs the host network.",
    },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: 'Remove `dns: { policy: DnsPolicy.CLUSTER_FIRST_WITH_HOST_NET }` (ClusterFirst is the default).',
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows || p.hostProcess || p.spec.dnsPolicy !== 'ClusterFirstWithHostNet') return;
      const path = join(p.path, 'dnsPolicy');
      report({ path, messageId: 'host-net-dns' });
    },
  },
});
