/**
 * windows-node-selector-affinity-only: the EKS VPC resource controller gives Windows pods an IP only when they
 * carry the `kubernetes.io/os: windows` nodeSelector; node affinity alone schedules them but is not read
 * (https://docs.aws.amazon.com/eks/latest/userguide/windows-support.html#windows-sample-application).
 */
import { OS_LABEL } from '../kube';
import { affinityExcludesWindows, selectOs, unknownRuntimeClass } from '../model/pod-scheduling';
import { join } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-node-selector-affinity-only',
    family: 'scheduling',
    defaultSeverity: 'info',
    summary: 'A Windows pod that selects Windows nodes by node affinity only, without a nodeSelector.',
    rationale: 'The EKS VPC resource controller reads the kubernetes.io/os nodeSelector to give Windows pods an IP.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'It schedules; only EKS needs the nodeSelector (warning with cloud eks).',
    fixable: 'Adds nodeSelector kubernetes.io/os: windows.',
    cases: [
      {
        name: 'eks',
        severity: 'warning',
        when: 'With cloud eks: the VPC resource controller gives the pod no IP without the nodeSelector.',
      },
    ],
  },
  messages: {
    'affinity-only': {
      description: 'Windows nodes selected by required node affinity only.',
      message:
        'This Windows pod selects Windows nodes by node affinity only; {value} the VPC resource controller reads the {OS_LABEL} nodeSelector to give Windows pods an IP.',
      fix: 'Add nodeSelector { {OS_LABEL}: windows } as well.',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows || p.osBySelector !== undefined || p.osByAffinity !== 'windows') return;
      if (affinityExcludesWindows(p) || unknownRuntimeClass(p)) return;
      const eks = options.cloud === 'eks';
      report({
        path: join(p.path, 'nodeSelector'),
        messageId: 'affinity-only',
        data: { value: eks ? 'on EKS' : 'on EKS (if this cluster is one)', OS_LABEL },
        case: eks ? 'eks' : undefined,
      });
    },
  },
  fix: ({ pod }) => (pod.osBySelector === undefined ? [selectOs(pod, 'windows')] : []),
});
