/**
 * windows-toleration-missing: where Windows nodes are tainted (`os=windows:NoSchedule` by convention,
 * `node.kubernetes.io/os=windows:NoSchedule` on GKE) a pod without the toleration stays Pending
 * (https://kubernetes.io/docs/concepts/windows/user-guide/#taints-and-tolerations,
 * https://cloud.google.com/kubernetes-engine/docs/how-to/creating-a-cluster-windows#taints).
 */
import { GKE_WINDOWS_TAINT, WINDOWS_TAINT } from '../target';
import { targetTolerations, taintText, toleratesTaint, unknownRuntimeClass } from '../model/pod-scheduling';
import { join } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';

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
    cases: [
      {
        name: 'gke',
        severity: 'warning',
        when: 'With cloud gke, which taints every Windows Server node node.kubernetes.io/os=windows:NoSchedule: the pod stays Pending.',
      },
    ],
  },
  messages: {
    'no-toleration': { description: 'A Windows pod that does not tolerate os=windows:NoSchedule.' },
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows || unknownRuntimeClass(p)) return;
      if (toleratesTaint(p, WINDOWS_TAINT) || toleratesTaint(p, GKE_WINDOWS_TAINT)) return;
      const gke = options.cloud === 'gke';
      const taint = gke ? GKE_WINDOWS_TAINT : WINDOWS_TAINT;
      report(
        join(p.path, 'tolerations'),
        gke
          ? `This Windows pod does not tolerate ${taintText(GKE_WINDOWS_TAINT)}, which GKE puts on Windows Server nodes: it stays Pending.`
          : `This Windows pod tolerates no Windows node taint (${taintText(WINDOWS_TAINT)} by convention): on nodes tainted so it stays Pending. AKS and EKS add no taint by default.`,
        `Add toleration { key: ${taint.key}, operator: Equal, value: ${taint.value}, effect: ${taint.effect} } (or the taints your node pool really sets).`,
        gke ? 'gke' : undefined,
        'no-toleration',
      );
    },
  },
  fix: targetTolerations,
  // The target's taints are the user's word: every Windows pod tolerates them, whether or not it was reported.
  targetFix: targetTolerations,
});
