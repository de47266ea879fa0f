/**
 * linux-node-selector-missing: in a hybrid cluster an unpinned Linux pod can land on an untainted Windows node
 * (the AKS and EKS default) and sit in ImagePullBackOff
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#ensuring-os-specific-workloads-land-on-the-appropriate-container-host).
 * Judged only beside Windows pods of the same file: a directory of unrelated manifests must not interact.
 */
import { OS_LABEL } from '../kube';
import { selectOs, selectsOs } from '../model/pod-scheduling';
import { join } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'linux-node-selector-missing',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary: 'A Linux pod without the kubernetes.io/os: linux nodeSelector in a set that has Windows pods.',
    rationale:
      'In a hybrid cluster an unpinned Linux pod can land on an untainted Windows node and sit in ImagePullBackOff.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason:
      'On untainted Windows nodes (the AKS and EKS default) the pod can land there and never start; only pods of the same file as Windows pods are checked.',
    fixable: 'With pinLinux (--pin-linux): adds nodeSelector kubernetes.io/os: linux.',
    fixNeeds: 'pinLinux',
    // doctor-linux-pod-on-windows-node names the untainted Windows nodes such a pod can land on.
    replacedInCluster: true,
    cases: [
      {
        name: 'pool-selector',
        severity: 'info',
        when: 'The pod selects nodes by a pool or role label (control-plane nodes, agentpool: system), which usually selects Linux nodes only.',
      },
    ],
  },
  messages: {
    'no-linux-selector': {
      description: 'A Linux pod beside Windows pods that does not select kubernetes.io/os: linux.',
      message:
        'This Linux pod has no {OS_LABEL}: linux nodeSelector beside Windows workloads in the same file: on an untainted Windows node (the AKS and EKS default) it can land there and never start.',
      caseMessages: {
        'pool-selector':
          'This Linux pod selects nodes by {poolSelector} but not by {OS_LABEL}: unless that label selects only Linux nodes it can land on a Windows node beside the Windows workloads of this file.',
      },
      fix: 'Add nodeSelector { {OS_LABEL}: linux } (pinLinuxWorkloads(scope) does it for a whole cdk8s app).',
    },
  },
  check: {
    scope: 'pod',
    run(p, { hybrid }, report) {
      // Never a pod with a Windows sign (an image, windowsOptions...): the Windows rules speak about those.
      if (!hybrid || p.windows || p.windowsHint !== undefined || selectsOs(p, 'linux')) return;
      if (p.osAllowedByAffinity !== undefined && !p.osAllowedByAffinity.has('windows')) return;
      const byPool = p.poolSelector !== undefined;
      report({
        path: join(p.path, 'nodeSelector'),
        messageId: 'no-linux-selector',
        data: {
          poolSelector: p.poolSelector,
          OS_LABEL,
        },
        case: byPool ? 'pool-selector' : undefined,
      });
    },
  },
  fix: ({ pod, target }) =>
    target.pinLinux && pod.osBySelector === undefined && pod.osByAffinity === undefined ? [selectOs(pod, 'linux')] : [],
});
