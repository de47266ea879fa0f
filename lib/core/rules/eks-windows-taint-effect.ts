/**
 * eks-windows-taint-effect: the EKS API spells taint effects in upper case
 * (https://docs.aws.amazon.com/eks/latest/APIReference/API_Taint.html). A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';
import { windowsNodeGroup } from '../cloud/eks-node-group';
import { CLOUD_TAINT_EFFECTS, toCloudTaintEffect } from '../cloud/node-pools';
import { TAINT_EFFECTS } from '../target';

export default defineRule({
  meta: {
    id: 'eks-windows-taint-effect',
    family: 'eks',
    defaultSeverity: 'error',
    summary: 'A node group taint effect in the Kubernetes spelling (NoSchedule) where EKS wants NO_SCHEDULE.',
    rationale: 'The EKS API spells taint effects NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE and refuses others.',
    docs: 'https://docs.aws.amazon.com/eks/latest/APIReference/API_Taint.html',
    severityReason: 'EKS refuses the node group.',
  },
  messages: {
    'effect-spelling': {
      description: 'A taint effect not in the EKS spelling (NO_SCHEDULE, NO_EXECUTE, PREFER_NO_SCHEDULE).',
      message: "Taint effect '{effect}' is not an EKS taint effect.",
      fix: '{fix}',
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP],
    run: {
      'eks-node-group': (props, _context, report) => {
        if (windowsNodeGroup(props) === undefined || !Array.isArray(props.taints)) return;
        (props.taints as unknown[]).forEach((raw, i) => {
          const effect = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).effect : undefined;
          if (typeof effect !== 'string' || (CLOUD_TAINT_EFFECTS as readonly string[]).includes(effect)) return;
          const kubeEffect = TAINT_EFFECTS.find((e) => e.toLowerCase() === effect.toLowerCase());
          report({
            path: `taints[${i}].effect`,
            messageId: 'effect-spelling',
            data: {
              effect,
              fix: kubeEffect
                ? `Write '${toCloudTaintEffect(kubeEffect)}' (EKS spelling of ${kubeEffect}).`
                : `Use one of ${CLOUD_TAINT_EFFECTS.join(', ')}.`,
            },
          });
        });
      },
    },
  },
});
