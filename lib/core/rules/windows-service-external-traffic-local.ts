/**
 * windows-service-external-traffic-local: Windows kube-proxy honours `externalTrafficPolicy: Local` only with
 * Direct Server Return (https://kubernetes.io/docs/concepts/services-networking/windows-networking/#limitations).
 */
import { WINDOWS_DSR_FACT } from '../facts/kubernetes';
import { namespaceOf } from '../model/context';
import { rec, stringMap } from '../model/util';
import { podName } from '../model/windows-pods';
import { NETWORKING } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-service-external-traffic-local',
    family: 'services',
    defaultSeverity: 'warning',
    summary: 'externalTrafficPolicy: Local on a Service selecting Windows pods.',
    rationale: 'Windows kube-proxy needs Direct Server Return (DSR) enabled to honour externalTrafficPolicy: Local.',
    docs: NETWORKING,
    severityReason: 'Works only with DSR enabled in Windows kube-proxy.',
  },
  messages: {
    'external-traffic-local': {
      description: 'externalTrafficPolicy: Local on a Service in front of Windows pods.',
      message:
        "{path} 'Local' on a Service selecting Windows pods ({target}) works only when Windows kube-proxy runs with Direct Server Return (DSR).",
      fix: 'Run Windows kube-proxy with {flag} (the WinDSR feature gate is GA and on since Kubernetes 1.{gaMinor}), or use externalTrafficPolicy: Cluster.',
    },
  },
  check: {
    scope: 'object',
    kinds: ['Service'],
    run(service, { windowsPods }, report) {
      const spec = rec(service, 'spec');
      if (spec?.externalTrafficPolicy !== 'Local') return;
      const target = windowsPods.find(namespaceOf(service), stringMap(spec, 'selector'));
      if (!target) return;
      const path = 'spec.externalTrafficPolicy';
      report({
        path,
        messageId: 'external-traffic-local',
        data: { target: podName(target), flag: WINDOWS_DSR_FACT.flag, gaMinor: WINDOWS_DSR_FACT.gaMinor },
      });
    },
  },
});
