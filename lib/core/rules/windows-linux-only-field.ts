/**
 * windows-linux-only-field: a pod that is Windows by its scheduling or images but has no `spec.os` passes admission
 * with the fields the API server forbids on declared Windows pods; the Windows kubelet ignores them or fails the
 * container (https://kubernetes.io/docs/concepts/windows/intro/#compatibility-v1-pod).
 */
import { WINDOWS_ALTERNATIVE } from '../windows-fields';
import { FORBIDDEN_FIELD_REMOVAL, forbiddenFields, removeField } from '../model/pod-forbidden';
import { show } from '../model/util';
import { K8S_WINDOWS } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-linux-only-field',
    family: 'api-server',
    defaultSeverity: 'info',
    summary: 'A Linux-only field on a pod that is Windows by its scheduling or images but has no spec.os.',
    rationale:
      'Without spec.os the API server accepts the field, but the Windows node ignores it or fails the container; setting spec.os.name: windows turns it into an error.',
    docs: K8S_WINDOWS,
    severityReason:
      'Without spec.os the API server admits the pod and the Windows kubelet ignores these fields; charts often set them on purpose to pass Pod Security restricted.',
    fixable: 'Removes the field; the change report names it and its value.',
  },
  messages: {
    'linux-only-field': {
      description: 'A Linux-only field on a pod that is Windows but has no spec.os.',
      message:
        '{path} {value} is Linux-only, and this pod is Windows ({evidence}): the Windows node ignores it or fails the container.',
      fix: '{value2} Then set spec.os.name: windows so the API server checks these fields.',
    },
  },
  fixMeaning: FORBIDDEN_FIELD_REMOVAL,
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows || p.declaredOs === 'windows') return;
      for (const { path, value, field } of forbiddenFields(p)) {
        report({
          path,
          messageId: 'linux-only-field',
          data: { value: show(value), evidence: p.evidence, value2: WINDOWS_ALTERNATIVE[field] ?? 'Remove it.' },
        });
      }
    },
  },
  fix: removeField,
});
