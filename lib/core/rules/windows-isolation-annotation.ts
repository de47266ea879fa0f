/**
 * windows-isolation-annotation: `experimental.windows.kubernetes.io/isolation-type` was read only by dockershim
 * (removed in Kubernetes 1.24); containerd ignores it and chooses Hyper-V isolation by RuntimeClass handler
 * (https://kubernetes.io/docs/concepts/windows/intro/#compatibility-v1-pod,
 * https://kubernetes.io/docs/concepts/containers/runtime-class/).
 */
import { WINDOWS_RUNTIME_HANDLERS } from '../releases';
import { ISOLATION_ANNOTATION } from '../model/pod';
import { has, join, key, show } from '../model/util';
import { RUNTIME_CLASS } from './docs';
import { defineRule } from './rule';
import { celString } from './cel';

export default defineRule({
  meta: {
    id: 'windows-isolation-annotation',
    family: 'scheduling',
    defaultSeverity: 'warning',
    summary: 'The experimental.windows.kubernetes.io/isolation-type annotation, which only dockershim read.',
    rationale:
      'containerd ignores the annotation, so the pod runs process-isolated; Hyper-V isolation is chosen by a RuntimeClass with the runhcs-wcow-hypervisor handler.',
    docs: RUNTIME_CLASS,
    severityReason: 'The pod runs, but process-isolated, not as the annotation asks.',
  },
  messages: {
    'isolation-annotation': {
      description: 'The dockershim-era isolation-type annotation.',
      message:
        'The {ISOLATION_ANNOTATION}: {value} annotation was read only by dockershim; containerd ignores it and runs the pod process-isolated.',
      fix: "Remove the annotation and name a RuntimeClass whose handler is '{hyperv}' (experimental upstream).",
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows || !has(p.annotations, ISOLATION_ANNOTATION)) return;
      const annotations = join(p.metadataPath, 'annotations');
      report({
        path: join(annotations, key(ISOLATION_ANNOTATION)),
        messageId: 'isolation-annotation',
        data: {
          ISOLATION_ANNOTATION,
          value: show(p.annotations[ISOLATION_ANNOTATION]),
          hyperv: WINDOWS_RUNTIME_HANDLERS.hyperv,
        },
      });
    },
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        // The pod's own annotations (a workload's template's), as the check reads them.
        expression: `!variables.windows || !has(variables.podMeta.annotations) || !(${celString(ISOLATION_ANNOTATION)} in variables.podMeta.annotations)`,
        messageExpression: `'windows-isolation-annotation: The ${ISOLATION_ANNOTATION}: ' + variables.podMeta.annotations[${celString(ISOLATION_ANNOTATION)}] + ' annotation was read only by dockershim; containerd ignores it and runs the pod process-isolated. Remove the annotation and name a RuntimeClass whose handler is ${WINDOWS_RUNTIME_HANDLERS.hyperv} (experimental upstream).'`,
      },
    ],
  }),
});
