/**
 * eks-windows-taint: EKS Windows nodes carry only the taints the node group gives them
 * (https://aws.github.io/aws-eks-best-practices/windows/docs/scheduling/). A cloud rule: its check reads a cloud resource's inputs; `runCloudRules` runs it (the policy pack, on provider resources).
 */
import { EKS_NODE_GROUP } from './cloud-resources';
import { defineRule } from './rule';
import { windowsNodeGroup } from '../cloud/eks-node-group';
import { toCloudTaintEffect } from '../cloud/node-pools';
import { WINDOWS_TAINT, taintLiteral } from '../target';

export default defineRule({
  meta: {
    id: 'eks-windows-taint',
    family: 'eks',
    defaultSeverity: 'warning',
    summary: 'A Windows node group without the os=windows NO_SCHEDULE taint.',
    rationale: 'EKS does not taint Windows nodes; without the taint Linux pods without a selector land on them.',
    docs: 'https://aws.github.io/aws-eks-best-practices/windows/docs/scheduling/',
    severityReason: 'Only Linux pods without an OS selector are hurt.',
  },
  messages: {
    'no-taint': {
      description: 'A Windows node group without the os=windows:NO_SCHEDULE taint.',
      message:
        'The Windows node group does not carry the taint os=windows:NO_SCHEDULE, so Linux pods without a kubernetes.io/os selector can land on it.',
      fix: 'Add {WINDOWS_TAINT} and tolerate it in Windows workloads.',
    },
  },
  check: {
    scope: 'cloud',
    resources: [EKS_NODE_GROUP],
    run: {
      'eks-node-group': ({ amiType, taints }, _context, report) => {
        if (windowsNodeGroup({ amiType }) === undefined) return;
        if (taints !== undefined && !Array.isArray(taints)) return;
        const list: readonly unknown[] = taints ?? [];
        // An element not yet known (preview) may be the Windows taint: do not call it missing.
        if (list.some((t) => typeof t !== 'object' || t === null)) return;
        const tainted = list.some((t) => {
          const { key, value, effect } = t as Record<string, unknown>;
          return (
            key === WINDOWS_TAINT.key &&
            value === WINDOWS_TAINT.value &&
            effect === toCloudTaintEffect(WINDOWS_TAINT.effect)
          );
        });
        if (tainted) return;
        report({
          path: 'taints',
          messageId: 'no-taint',
          data: { WINDOWS_TAINT: taintLiteral(WINDOWS_TAINT, toCloudTaintEffect(WINDOWS_TAINT.effect)) },
        });
      },
    },
  },
});
