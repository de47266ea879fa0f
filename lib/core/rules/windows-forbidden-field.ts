/**
 * windows-forbidden-field: the fields kube-apiserver forbids on pods with `spec.os.name: windows`
 * ("cannot be set for a windows pod", validation.go `validateWindows`,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go;
 * https://kubernetes.io/docs/concepts/windows/intro/#compatibility-v1-pod).
 */
import { POD_RESOURCES_REFUSED_FROM_MINOR, WINDOWS_ALTERNATIVE } from '../windows-fields';
import { apiSchema, targetMinor } from '../api/schema';
import { forbiddenFields, removeField } from '../model/pod-forbidden';
import { show } from '../model/util';
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
    cases: [
      {
        name: 'pod-resources-before-1.34',
        severity: 'warning',
        when: `Pod-level resources with a target older than 1.${POD_RESOURCES_REFUSED_FROM_MINOR}: the API server admits them (or drops them while the alpha PodLevelResources gate is off) and refuses them from 1.${POD_RESOURCES_REFUSED_FROM_MINOR}.`,
      },
    ],
  },
  check: {
    scope: 'pod',
    run(p, { options }, report) {
      if (!p.windows || p.declaredOs !== 'windows') return;
      for (const { path, value, field, detail } of forbiddenFields(p)) {
        const minor = field === 'resources' ? targetMinor(options.kubernetesVersion) : undefined;
        if (minor !== undefined && minor < POD_RESOURCES_REFUSED_FROM_MINOR) {
          // Before 1.32 the field does not exist: api-unknown-field reports it.
          const podSpec = apiSchema(minor).kinds.get('v1/Pod')?.fields.get('spec');
          if (!podSpec?.type.fields.has('resources')) continue;
          report(
            path,
            `${path} ${show(value)}: Kubernetes 1.${minor} admits pod-level resources on a Windows pod (or drops them while the alpha PodLevelResources gate is off), and 1.${POD_RESOURCES_REFUSED_FROM_MINOR} and later refuse the pod (${detail}).`,
            WINDOWS_ALTERNATIVE[field] ?? 'Remove it.',
            'pod-resources-before-1.34',
          );
          continue;
        }
        report(path, `${path} ${show(value)}: Forbidden: ${detail}.`, WINDOWS_ALTERNATIVE[field] ?? 'Remove it.');
      }
    },
  },
  fix: removeField,
});
