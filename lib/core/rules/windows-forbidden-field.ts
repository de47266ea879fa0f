/**
 * windows-forbidden-field: the fields kube-apiserver forbids on pods with `spec.os.name: windows`
 * ("cannot be set for a windows pod", validation.go `validateWindows`,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go;
 * https://kubernetes.io/docs/concepts/windows/intro/#compatibility-v1-pod).
 */
import { WINDOWS_ALTERNATIVE } from '../windows-fields';
import { forbiddenFields, removeField } from '../validate/pod-forbidden';
import { show } from '../validate/util';
import { K8S_WINDOWS } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-forbidden-field',
    family: 'api-server',
    defaultSeverity: 'error',
    summary: 'A field the API server forbids on pods with spec.os.name: windows.',
    rationale:
      'kube-apiserver rejects Windows pods that set Linux-only security fields, host namespaces, sysctls or pod-level resources ("cannot be set for a windows pod").',
    docs: K8S_WINDOWS,
    ...API_SERVER_REJECTS_POD,
    fixable: 'Removes the field; the change report names it and its value.',
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      if (!p.windows || p.declaredOs !== 'windows') return;
      for (const { path, value, field, detail } of forbiddenFields(p)) {
        report(path, `${path} ${show(value)}: Forbidden: ${detail}.`, WINDOWS_ALTERNATIVE[field] ?? 'Remove it.');
      }
    },
  },
  fix: removeField,
});
