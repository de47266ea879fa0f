/**
 * windows-beta-os-label: `beta.kubernetes.io/os` is deprecated since Kubernetes 1.14; the kubelet still sets it
 * (https://kubernetes.io/docs/reference/labels-annotations-taints/#beta-kubernetes-io-os-deprecated).
 */
import { BETA_OS_LABEL, OS_LABEL } from '../kube';
import { selectOs } from '../model/pod-scheduling';
import { join, key, stringMap } from '../model/util';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-beta-os-label',
    family: 'scheduling',
    defaultSeverity: 'info',
    summary: 'A pod that selects Windows nodes by the deprecated beta.kubernetes.io/os label.',
    rationale: 'The label is deprecated since Kubernetes 1.14; the kubelet still sets it, so the pod schedules.',
    docs: 'https://kubernetes.io/docs/reference/labels-annotations-taints/#beta-kubernetes-io-os-deprecated',
    severityReason: 'The kubelet still sets the beta label, so the pod schedules.',
    fixable: 'Adds nodeSelector kubernetes.io/os: windows beside the beta label (which stays).',
  },
  messages: {
    'beta-label': {
      description: 'A nodeSelector on beta.kubernetes.io/os.',
      message:
        'This pod selects Windows nodes by the deprecated {BETA_OS_LABEL} label; the kubelet still sets it, so it schedules.',
      fix: 'Select {OS_LABEL}: windows instead (keeping the beta label beside it is harmless).',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows || p.osSelectorLabel !== BETA_OS_LABEL || p.osBySelector !== 'windows') return;
      report({
        path: join(p.path, 'nodeSelector', key(BETA_OS_LABEL)),
        messageId: 'beta-label',
        data: { BETA_OS_LABEL, OS_LABEL },
      });
    },
  },
  // The GA label beside the deprecated one, which stays: removing a field the user wrote is not certain.
  fix: ({ pod }) => (stringMap(pod.spec, 'nodeSelector')[OS_LABEL] === undefined ? [selectOs(pod, 'windows')] : []),
});
