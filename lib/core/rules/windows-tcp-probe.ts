/** windows-tcp-probe: tcpSocket probes are limited on Windows (https://kubernetes.io/docs/concepts/windows/intro/). */
import { has, join, rec } from '../model/util';
import { K8S_WINDOWS } from './docs';
import { defineRule } from './rule';

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

export default defineRule({
  meta: {
    id: 'windows-tcp-probe',
    family: 'probes',
    defaultSeverity: 'info',
    summary: 'A tcpSocket probe on a Windows container.',
    rationale: 'tcpSocket probes are limited on Windows; exec and httpGet probes work.',
    docs: K8S_WINDOWS,
    severityReason: 'tcpSocket probes work on Windows nodes; exec and httpGet are the better-trodden path.',
  },
  messages: {
    'tcp-probe': {
      description: 'A tcpSocket probe on a Windows container.',
      message: '{path}: tcpSocket probes are limited on Windows.',
      fix: 'Use an httpGet or exec probe.',
    },
  },
  frontDoorFixes: {
    cdk8s: () => ({
      fix: 'Use `kplus.Probe.fromHttpGet(...)` or `kplus.Probe.fromCommand(...)` instead of `fromTcpSocket`.',
    }),
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows) return;
      for (const c of p.containers) {
        if (c.list === 'ephemeralContainers' || c.hostProcess) continue;
        for (const probe of PROBES) {
          if (!has(rec(c.c, probe), 'tcpSocket')) continue;
          const path = join(c.path, probe, 'tcpSocket');
          report({ path, messageId: 'tcp-probe' });
        }
      }
    },
  },
});
