/**
 * pod-security-level: Pod Security Admission checks a pod against its Namespace's
 * `pod-security.kubernetes.io/enforce` level, at the namespace's `enforce-version`
 * (https://kubernetes.io/docs/concepts/security/pod-security-standards/,
 * https://kubernetes.io/docs/concepts/security/pod-security-admission/). The checks are the upstream ones, in
 * lib/core/pod-security.
 */
import {
  POD_SECURITY_ENFORCE_LABEL,
  POD_SECURITY_ENFORCE_VERSION_LABEL,
  POD_SECURITY_LEVELS,
  podSpecSecurityViolations,
  type PodSecurityLevel,
} from '../pod-security';
import { rec, stringMap } from '../model/util';
import { defineRule } from './rule';

function isLevel(v: string | undefined): v is PodSecurityLevel {
  return v !== undefined && (POD_SECURITY_LEVELS as readonly string[]).includes(v);
}

export default defineRule({
  meta: {
    id: 'pod-security-level',
    family: 'pod-security',
    defaultSeverity: 'error',
    summary: "A Windows pod that does not meet its Namespace's pod-security.kubernetes.io/enforce level.",
    rationale:
      'Pod Security Admission rejects it; HostProcess pods need a privileged namespace, restricted still wants runAsNonRoot.',
    docs: 'https://kubernetes.io/docs/concepts/security/pod-security-standards/',
    severityReason: 'Pod Security Admission rejects the pod.',
    rejectedByApiServer: true,
  },
  messages: {
    'below-level': {
      description: "A field the Namespace's enforced Pod Security level refuses.",
      message: "Namespace '{namespace}' enforces Pod Security '{enforce}', which rejects this pod: {message}",
      fix: '{fix}{hostProcessHint}',
    },
  },
  check: {
    scope: 'pod',
    run(p, { index, options }, report) {
      if (!p.windows) return;
      const ns = index.namespaces.get(p.namespace);
      if (!ns) return;
      const labels = stringMap(rec(ns, 'metadata'), 'labels');
      const enforce = labels[POD_SECURITY_ENFORCE_LABEL];
      if (!isLevel(enforce) || enforce === 'privileged') return;
      const pinned = labels[POD_SECURITY_ENFORCE_VERSION_LABEL];
      const version = pinned !== undefined && pinned !== 'latest' ? pinned : options.kubernetesVersion;
      let violations;
      try {
        // The pod spec the rules judged: a workload's, or a custom resource's pod template (an Argo Rollout's).
        violations = podSpecSecurityViolations(p.spec, {
          ...(typeof version === 'string' ? { kubernetesVersion: version } : {}),
          specPath: p.path,
          podMetadata: { annotations: p.annotations },
          metadataPath: p.metadataPath,
        });
      } catch {
        return;
      }
      for (const v of violations) {
        // A restricted namespace refuses both kinds; a baseline one only what breaks baseline.
        if (enforce === 'baseline' && v.level !== 'baseline') continue;
        const hostProcessHint =
          v.check === 'windowsHostProcess' || (p.hostProcess && v.check === 'hostNamespaces')
            ? ` HostProcess pods need a namespace labelled ${POD_SECURITY_ENFORCE_LABEL}: privileged.`
            : '';
        report({
          path: v.path,
          messageId: 'below-level',
          data: { namespace: p.namespace, enforce, message: v.message, fix: v.fix, hostProcessHint },
        });
      }
    },
  },
});
