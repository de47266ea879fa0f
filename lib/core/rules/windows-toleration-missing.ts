/**
 * windows-toleration-missing: where Windows nodes are tainted (`os=windows:NoSchedule` by convention,
 * `node.kubernetes.io/os=windows:NoSchedule` on GKE) a pod without the toleration stays Pending
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#taints-and-tolerations,
 * https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows#taints).
 */
import { GKE_WINDOWS_TAINT, WINDOWS_TAINT, type Taint } from '../target';
import { celString } from './cel';
import { targetTolerations, taintText, toleratesTaint, unknownRuntimeClass } from '../model/pod-scheduling';
import { join } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';

/** Whether one of the pod's own tolerations tolerates `taint` (target.ts `tolerates`), as CEL; `x` a taint map. */
function toleratesCel(taint: { key: string; value: string; effect: string }): string {
  return `has(variables.spec.tolerations) && variables.spec.tolerations.exists(t, (!has(t.effect) || t.effect == '' || t.effect == ${taint.effect}) && (has(t.operator) && t.operator == 'Exists' ? (!has(t.key) || t.key == '' || t.key == ${taint.key}) : (has(t.key) && t.key == ${taint.key} && (has(t.value) ? t.value : '') == ${taint.value})))`;
}

/** A known taint as CEL literals. */
function literalTaint(taint: Taint): { key: string; value: string; effect: string } {
  return { key: celString(taint.key), value: celString(taint.value ?? ''), effect: celString(taint.effect) };
}

const TOLERATES_KNOWN = `${toleratesCel(literalTaint(WINDOWS_TAINT))} || ${toleratesCel(literalTaint(GKE_WINDOWS_TAINT))}`;
/** A RuntimeClass the policy cannot see may add the tolerations (lint's unknownRuntimeClass). */
const SKIP = '!variables.windows || has(variables.spec.runtimeClassName)';
/** The words of the no-toleration message for `taint`, as the policies say them. */
const taintWords = (taint: Taint) => ({
  taint: { text: taintText(taint) },
  key: { text: taint.key },
  value: { text: taint.value ?? '' },
  effect: { text: taint.effect },
});

export default defineRule({
  meta: {
    id: 'windows-toleration-missing',
    family: 'scheduling',
    defaultSeverity: 'info',
    summary: 'A Windows pod that does not tolerate the os=windows:NoSchedule taint.',
    rationale:
      'Where Windows nodes are tainted (os=windows:NoSchedule by convention, node.kubernetes.io/os=windows:NoSchedule on GKE) a pod without the toleration stays Pending.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'AKS and EKS do not taint Windows nodes by default; warning with cloud gke, which taints them.',
    fixable:
      'Adds a toleration for each taint of the target (--toleration, or a --cloud preset that taints); none without one.',
    fixNeeds: 'tolerations',
    cases: [
      {
        name: 'gke',
        severity: 'warning',
        when: 'With cloud gke, which taints every Windows Server node node.kubernetes.io/os=windows:NoSchedule: the pod stays Pending.',
      },
      {
        name: 'cluster-taints',
        severity: 'error',
        when: 'Admission policies with the cluster facts only: every Windows pool of the cluster has a NoSchedule or NoExecute taint the pod does not tolerate, so it stays Pending.',
      },
    ],
  },
  messages: {
    'no-toleration': {
      description: 'A Windows pod that does not tolerate os=windows:NoSchedule.',
      message:
        'This Windows pod tolerates no Windows node taint ({taint} by convention): on nodes tainted so it stays Pending. AKS and EKS add no taint by default.',
      caseMessages: {
        gke: 'This Windows pod does not tolerate {taint}, which GKE puts on Windows Server nodes: it stays Pending.',
      },
      fix: 'Add toleration { key: {key}, operator: Equal, value: {value}, effect: {effect} } (or the taints your node pool really sets).',
    },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows || unknownRuntimeClass(p)) return;
      if (toleratesTaint(p, WINDOWS_TAINT) || toleratesTaint(p, GKE_WINDOWS_TAINT)) return;
      const gke = options.cloud === 'gke';
      const taint = gke ? GKE_WINDOWS_TAINT : WINDOWS_TAINT;
      report({
        path: join(p.path, 'tolerations'),
        messageId: 'no-toleration',
        data: {
          taint: taintText(taint),
          key: taint.key,
          value: taint.value,
          effect: taint.effect,
        },
        case: gke ? 'gke' : undefined,
      });
    },
  },
  fix: targetTolerations,
  // The target's taints are the user's word: every Windows pod tolerates them, whether or not it was reported.
  targetFix: targetTolerations,
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        clouds: ['none', 'eks', 'aks'],
        expression: `${SKIP} || ${TOLERATES_KNOWN}`,
        message: { messageId: 'no-toleration', data: taintWords(WINDOWS_TAINT) },
      },
      {
        case: 'gke',
        clouds: ['gke'],
        expression: `${SKIP} || ${TOLERATES_KNOWN}`,
        message: { messageId: 'no-toleration', data: taintWords(GKE_WINDOWS_TAINT) },
      },
      {
        case: 'cluster-taints',
        params: true,
        expression: `${SKIP} || !has(params.spec.pools) || params.spec.pools.size() == 0 || params.spec.pools.exists(p, !has(p.taints) || p.taints.all(x, x.effect == 'PreferNoSchedule' || (${toleratesCel({ key: 'x.key', value: "(has(x.value) ? x.value : '')", effect: 'x.effect' })})))`,
        messageExpression:
          "'windows-toleration-missing: This Windows pod tolerates the taints of none of the cluster\\'s Windows pools (' + params.spec.pools.map(p, p.name + ': ' + (has(p.taints) ? p.taints.filter(x, x.effect != 'PreferNoSchedule').map(x, x.key + (has(x.value) ? '=' + x.value : '') + ':' + x.effect).join(', ') : '')).join('; ') + '): it stays Pending. Add tolerations for the taints of the pool it should run on.'",
      },
    ],
    limits:
      "The tolerations a RuntimeClass adds are another object's: the policy accepts a pod that names a RuntimeClass.",
  }),
});
