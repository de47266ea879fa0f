/**
 * wildcard-toleration: a toleration with `operator: Exists` and no key tolerates every taint
 * (https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/), the Windows taint included.
 * Pods that select their OS by nodeSelector or affinity are exempt (typically node-agent DaemonSets): the
 * selector, not the taint, keeps them on their OS.
 */
import { OS_LABEL } from '../kube';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';
import { celPresent, SPEC } from './cel-parts';

/** A toleration `t` of every taint, in CEL. */
const WILDCARD = "has(t.operator) && t.operator == 'Exists' && (!has(t.key) || t.key == '')";

export default defineRule({
  meta: {
    id: 'wildcard-toleration',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary: 'A toleration with operator: Exists and no key, which tolerates every taint.',
    rationale: 'It swallows the Windows taint, so the pod can land on nodes of the other OS.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason: 'The pod can land on nodes of the other OS.',
  },
  messages: {
    wildcard: {
      description: 'A keyless operator: Exists toleration, which tolerates every taint.',
      message:
        '{path} tolerates every taint (operator: Exists without a key), including the Windows taint, and the pod selects no {OS_LABEL}: it can land on nodes of the other OS.',
      fix: 'Tolerate specific taints, or add nodeSelector { {OS_LABEL}: {value} }.',
    },
  },
  check: {
    scope: 'pod',
    run(p, { hybrid }, report) {
      if (p.osBySelector !== undefined || p.osByAffinity !== undefined) return;
      // A Linux pod can only land on the other OS where Windows nodes exist: judged beside Windows pods only.
      if (!p.windows && !hybrid) return;
      for (const { t, path } of p.tolerations) {
        if (path.endsWith('runtimeClassName')) continue;
        if (t.operator !== 'Exists' || (t.key !== undefined && t.key !== null && t.key !== '')) continue;
        report({ path, messageId: 'wildcard', data: { OS_LABEL, value: p.windows ? 'windows' : 'linux' } });
      }
    },
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        // A Linux pod is judged beside Windows pods only (the check's `hybrid`): a policy sees one object, so it
        // judges Windows pods.
        expression: `!variables.windows || variables.selectedOs != '' || variables.affinityOs != '' || !has(${SPEC}.tolerations) || !${SPEC}.tolerations.exists(t, ${WILDCARD})`,
        messageExpression: `'wildcard-toleration: a toleration tolerates every taint (operator: Exists without a key), including the Windows taint, and the pod selects no ${OS_LABEL}: it can land on nodes of the other OS. Tolerate specific taints, or add nodeSelector { ${OS_LABEL}: windows }.'`,
      },
      {
        // A Linux pod where the cluster facts list Windows pools: the cluster is hybrid, as the check's file is.
        expression: `variables.windows || variables.selectedOs != '' || variables.affinityOs != '' || !(${celPresent('params', 'spec', 'pools')} && size(params.spec.pools) > 0) || !has(${SPEC}.tolerations) || !${SPEC}.tolerations.exists(t, ${WILDCARD})`,
        messageExpression: `'wildcard-toleration: a toleration tolerates every taint (operator: Exists without a key), including the taint of the Windows pools, and the pod selects no ${OS_LABEL}: it can land on Windows nodes. Tolerate specific taints, or add nodeSelector { ${OS_LABEL}: linux }.'`,
        params: true,
      },
    ],
  }),
});
