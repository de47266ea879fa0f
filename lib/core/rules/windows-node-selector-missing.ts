/**
 * windows-node-selector-missing: `spec.os.name` does not steer the scheduler; only a `kubernetes.io/os: windows`
 * selector (or required affinity) keeps a Windows pod off Linux nodes
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#ensuring-os-specific-workloads-land-on-the-appropriate-container-host).
 */
import { OS_LABEL } from '../kube';
import { affinityExcludesWindows, selectOs, selectsOs, unknownRuntimeClass } from '../model/pod-scheduling';
import { join } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-node-selector-missing',
    family: 'scheduling',
    defaultSeverity: 'error',
    summary: 'A Windows pod that does not select kubernetes.io/os=windows nodes.',
    rationale:
      'spec.os.name does not steer the scheduler: without the selector the pod can land on a Linux node, where it cannot run.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'The pod can land on a Linux node, where it never starts, or selects Linux outright.',
    fixable:
      'Adds nodeSelector kubernetes.io/os: windows when the pod selects no OS (a contradicting selector is left to you).',
    cases: [
      {
        name: 'pool-selector',
        severity: 'info',
        when: 'The pod selects nodes by a pool or role label (agentpool, eks.amazonaws.com/nodegroup, cloud.google.com/gke-nodepool…) but not by OS: that label may select only Windows nodes, so it schedules.',
      },
      {
        name: 'pool-selector-eks',
        severity: 'warning',
        when: "The same with cloud eks: the pod schedules, but EKS's VPC resource controller reads the kubernetes.io/os nodeSelector to give Windows pods an IP.",
      },
    ],
  },
  messages: {
    'affinity-excludes': { description: 'A required node affinity that allows no Windows node.' },
    'other-os': { description: 'A nodeSelector that selects nodes of another OS.' },
    'pool-only': { description: 'A nodeSelector on a node-pool label but not on kubernetes.io/os.' },
    'no-selector': { description: 'No kubernetes.io/os=windows selector at all.' },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows) return;
      if (affinityExcludesWindows(p)) {
        const allowed = [...(p.osAllowedByAffinity ?? [])];
        report(
          join(p.path, 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'),
          `This pod is Windows (${p.evidence}) but its required node affinity allows ${allowed.length > 0 ? `only ${OS_LABEL} ${allowed.join(', ')}` : `no ${OS_LABEL} value`}: it can never be scheduled on a Windows node.`,
          `Make the affinity require ${OS_LABEL} In [windows], or remove the OS term and keep nodeSelector { ${OS_LABEL}: windows }.`,
          undefined,
          'affinity-excludes',
        );
        return;
      }
      const selectsOther = p.osBySelector !== undefined && p.osBySelector !== 'windows';
      if (!selectsOther && selectsOs(p, 'windows')) return;
      if (unknownRuntimeClass(p) && p.osBySelector === undefined) return;
      const byPool = p.osBySelector === undefined && p.poolSelector !== undefined;
      report(
        join(p.path, 'nodeSelector'),
        p.osBySelector !== undefined
          ? `This pod is Windows (${p.evidence}) but selects ${p.osSelectorLabel ?? OS_LABEL}=${p.osBySelector} nodes, where it cannot run.`
          : byPool
            ? `This pod is Windows (${p.evidence}) and selects nodes by ${p.poolSelector} but not by ${OS_LABEL}: unless that label selects only Windows nodes it can land on a Linux node.`
            : `This pod is Windows (${p.evidence}) but does not select ${OS_LABEL}=windows nodes: spec.os.name does not steer the scheduler, so it can land on a Linux node and never start.`,
        `Add nodeSelector { ${OS_LABEL}: windows } (schedulingFor(target) emits it with the tolerations).`,
        byPool ? (options.cloud === 'eks' ? 'pool-selector-eks' : 'pool-selector') : undefined,
        p.osBySelector !== undefined ? 'other-os' : byPool ? 'pool-only' : 'no-selector',
      );
    },
  },
  // Only where the pod selects no OS at all: a contradicting selector or affinity is the user's to settle.
  fix: ({ pod }) =>
    pod.osBySelector === undefined && (pod.osByAffinity === undefined || pod.osByAffinity === 'windows')
      ? [selectOs(pod, 'windows')]
      : [],
});
