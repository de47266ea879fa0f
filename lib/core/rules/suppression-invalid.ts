/**
 * suppression-invalid: a suppression annotation must name a rule that exists and say why
 * (`suppress.k8s-windows.io/<rule-id>: <reason>`, as kube-linter's `ignore-check.kube-linter.io/<check>: <reason>`,
 * https://docs.kubelinter.io/#/configuring-kubelinter?id=ignoring-violations-for-specific-cases). A typo'd id
 * suppresses nothing, and a suppression without a reason cannot be reviewed.
 */
import { unknownRuleFix } from '../suggest';
import { suppressionAnnotations } from '../model/suppression-annotations';
import { SUPPRESS_ANNOTATION_PREFIX, WAIVE_ANNOTATION } from '../model/types';
import { isRecord } from '../model/util';
import { locatePods } from '../pod-templates';
import type { SuppressionAnnotation } from '../model/suppression-annotations';
import { ANNOTATIONS } from './docs';
import { defineRule } from './rule';

const PER_RULE = `${SUPPRESS_ANNOTATION_PREFIX}<rule-id>: "<why this finding is accepted>"`;

export default defineRule({
  meta: {
    id: 'suppression-invalid',
    family: 'input',
    defaultSeverity: 'error',
    summary: 'A suppression annotation that names no rule, or gives no reason.',
    rationale:
      "A typo'd rule id suppresses nothing while it looks as if it did; a suppression without a reason cannot be reviewed.",
    docs: ANNOTATIONS,
    severityReason: 'The finding the user meant to suppress is not suppressed.',
    cases: [
      {
        name: 'no-reason',
        severity: 'warning',
        when: `The annotation suppresses, but gives no reason (an empty value, or the older ${WAIVE_ANNOTATION} list).`,
      },
    ],
  },
  // Its own findings say a suppression is wrong: one that hid them would hide its own mistake.
  suppressible: false,
  messages: {
    'unknown-rule': {
      description: 'A suppression that names no rule of the catalogue.',
      message: "{path}: '{id}' is not a rule id, so this suppresses nothing.",
      fix: '{fix}',
    },
    'legacy-no-reason': {
      description: 'The old list annotation, which carries no reason.',
      message: '{path} suppresses {value} without a reason.',
      fix: 'Write one annotation per rule with the reason as its value: {PER_RULE}.{value2}',
    },
    'no-reason': {
      description: 'A per-rule suppression with an empty reason.',
      message: '{path} gives no reason.',
      fix: 'Write why the finding is accepted: {PER_RULE}.',
    },
  },
  check: {
    scope: 'document',
    run(doc, { ruleIds, options }, report) {
      if (!isRecord(doc)) return;
      // The object's own annotations and each of its pod templates' (an Argo Workflow has one per template), once.
      const seen = new Map<string, SuppressionAnnotation>();
      const locs = locatePods(doc, Array.isArray(options.podTemplates) ? options.podTemplates : []);
      for (const loc of locs.length > 0 ? locs : [undefined]) {
        for (const a of suppressionAnnotations(doc, loc)) if (!seen.has(a.path)) seen.set(a.path, a);
      }
      for (const a of seen.values()) {
        for (const id of a.ruleIds) {
          if ((a.legacy && id === '*') || ruleIds.has(id)) continue;
          report({ path: a.path, messageId: 'unknown-rule', data: { id, fix: unknownRuleFix(id, [...ruleIds]) } });
        }
        if (a.legacy) {
          report({
            path: a.path,
            messageId: 'legacy-no-reason',
            data: {
              value: a.ruleIds.join(', ') || 'nothing',
              PER_RULE,
              value2: a.ruleIds.includes('*') ? ' "*" hides every rule, new ones included: name the rules.' : '',
            },
            case: 'no-reason',
          });
        } else if (a.reason === undefined || a.reason === '') {
          report({ path: a.path, messageId: 'no-reason', data: { PER_RULE }, case: 'no-reason' });
        }
      }
    },
  },
});
