/**
 * windows-node-selector-missing: `spec.os.name` does not steer the scheduler; only a `kubernetes.io/os: windows`
 * selector (or required affinity) keeps a Windows pod off Linux nodes
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#ensuring-os-specific-workloads-land-on-the-appropriate-container-host).
 */
import { OS_LABEL } from '../kube';
import { GENERIC_LABELS } from '../model/pod';
import { affinityExcludesWindows, selectOs, selectsOs, unknownRuntimeClass } from '../model/pod-scheduling';
import { celStringList } from './cel';
import { join } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';

/** The pod selects Windows nodes, by selector or (with no OS selector) by required affinity. */
const SELECTS_WINDOWS =
  "variables.selectedOs == 'windows' || (variables.selectedOs == '' && variables.affinityOs == 'windows')";
/** A RuntimeClass the policy cannot see may carry the selector (lint's unknownRuntimeClass). */
const RUNTIME_CLASS_MAY_SELECT = "variables.selectedOs == '' && has(variables.spec.runtimeClassName)";
const BY_POOL = "variables.selectedOs == '' && variables.nsm_poolSelector != ''";
const FIX = `' Add nodeSelector { ${OS_LABEL}: windows } (schedulingFor(target) emits it with the tolerations).'`;

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
  cel: () => ({
    scope: 'pod',
    variables: [
      {
        // Required affinity allows no Windows node (every term restricts the OS, none allows windows).
        name: 'nsm_excludesWindows',
        expression:
          "variables.osTerms.size() > 0 && variables.osTerms.all(t, t.size() > 0) && !variables.osAllowed.exists(l, 'windows' in l)",
      },
      {
        // The first selector or required-affinity label that is not generic: a likely pool selector.
        name: 'nsm_poolSelector',
        expression: `has(variables.spec.nodeSelector) && variables.spec.nodeSelector.exists(k, !(k in ${celStringList([...GENERIC_LABELS])})) ? variables.spec.nodeSelector.filter(k, !(k in ${celStringList([...GENERIC_LABELS])}))[0] : has(variables.spec.affinity) && has(variables.spec.affinity.nodeAffinity) && has(variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution) && has(variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms) && variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.exists(t, has(t.matchExpressions) && t.matchExpressions.exists(e, !(e.key in ${celStringList([...GENERIC_LABELS])}))) ? variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.filter(t, has(t.matchExpressions) && t.matchExpressions.exists(e, !(e.key in ${celStringList([...GENERIC_LABELS])})))[0].matchExpressions.filter(e, !(e.key in ${celStringList([...GENERIC_LABELS])}))[0].key : ''`,
      },
    ],
    validations: [
      {
        expression: '!variables.windows || !variables.nsm_excludesWindows',
        messageExpression: `'windows-node-selector-missing: This pod is Windows (' + variables.evidence + ') but its required node affinity allows ' + (variables.osAllowed.exists(l, l.size() > 0) ? 'only ${OS_LABEL} ' + variables.osAllowed.filter(l, l.size() > 0)[0].join(', ') : 'no ${OS_LABEL} value') + ': it can never be scheduled on a Windows node. Make the affinity require ${OS_LABEL} In [windows], or remove the OS term and keep nodeSelector { ${OS_LABEL}: windows }.'`,
      },
      {
        expression: `!variables.windows || variables.nsm_excludesWindows || ${SELECTS_WINDOWS} || ${RUNTIME_CLASS_MAY_SELECT} || ${BY_POOL}`,
        messageExpression: `'windows-node-selector-missing: This pod is Windows (' + variables.evidence + (variables.selectedOs != '' ? ') but selects ' + variables.selectedOsLabel + '=' + variables.selectedOs + ' nodes, where it cannot run.' : ') but does not select ${OS_LABEL}=windows nodes: spec.os.name does not steer the scheduler, so it can land on a Linux node and never start.') + ${FIX}`,
      },
      ...(['pool-selector', 'pool-selector-eks'] as const).map((c) => ({
        case: c,
        clouds: c === 'pool-selector-eks' ? (['eks'] as const) : (['none', 'aks', 'gke'] as const),
        expression: `!variables.windows || variables.nsm_excludesWindows || ${SELECTS_WINDOWS} || ${RUNTIME_CLASS_MAY_SELECT} || !(${BY_POOL})`,
        messageExpression: `'windows-node-selector-missing: This pod is Windows (' + variables.evidence + ') and selects nodes by ' + variables.nsm_poolSelector + ' but not by ${OS_LABEL}: unless that label selects only Windows nodes it can land on a Linux node.' + ${FIX}`,
      })),
    ],
    limits:
      'A RuntimeClass the pod names may select Windows nodes: the policy, which sees only the pod, accepts a pod that names one and selects no OS.',
  }),
});
