/**
 * windows-service-session-affinity-timeout: Windows kube-proxy does not support the ClientIP session affinity
 * timeout (https://kubernetes.io/docs/concepts/services-networking/windows-networking/#limitations).
 */
import { namespaceOf } from '../model/context';
import { has, rec, show, stringMap } from '../model/util';
import { podName } from '../model/windows-pods';
import { NETWORKING } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-service-session-affinity-timeout',
    family: 'services',
    defaultSeverity: 'warning',
    summary: 'sessionAffinityConfig.clientIP.timeoutSeconds on a Service selecting Windows pods.',
    rationale: 'Windows kube-proxy does not support the session affinity timeout.',
    docs: NETWORKING,
    severityReason: 'The Service works, without the timeout.',
  },
  messages: {
    'session-affinity-timeout': {
      description: 'A ClientIP session affinity timeout on a Service in front of Windows pods.',
      message:
        '{path} {timeoutSeconds} is not supported by Windows kube-proxy, and this Service selects Windows pods ({target}).',
      fix: 'Remove timeoutSeconds (session affinity then keeps the default), or front the Windows pods with an ingress that supports sticky sessions.',
    },
  },
  check: {
    scope: 'object',
    kinds: ['Service'],
    run(service, { windowsPods }, report) {
      const spec = rec(service, 'spec');
      const clientIP = rec(rec(spec, 'sessionAffinityConfig'), 'clientIP');
      if (!has(clientIP, 'timeoutSeconds')) return;
      const target = windowsPods.find(namespaceOf(service), stringMap(spec, 'selector'));
      if (!target) return;
      const path = 'spec.sessionAffinityConfig.clientIP.timeoutSeconds';
      report({
        path,
        messageId: 'session-affinity-timeout',
        data: { timeoutSeconds: show(clientIP?.timeoutSeconds), target: podName(target) },
      });
    },
  },
});
