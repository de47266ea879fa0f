/** The least-privilege ClusterRole `doctor` needs (`doctor --print-rbac`): list on what it reads, nothing else. */
import { stringify } from 'yaml';
import { DOCTOR_ACCESS } from './read';

/** The ClusterRole, and a binding to a subject when one is named. */
export function doctorRbac(name = 'k8s-windows-doctor'): string {
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name,
      annotations: {
        'k8s-windows.io/purpose':
          'k8s-windows doctor: read-only; lists nodes, pods, events, RuntimeClasses and the workload controllers; never reads Secrets',
      },
    },
    // get beside list: kubectl and the client may read one object by name; doctor itself only lists.
    rules: DOCTOR_ACCESS.map((a) => ({ apiGroups: [a.group], resources: [a.resource], verbs: ['get', ...a.verbs] })),
  };
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'k8s-windows-doctor' }],
  };
  return [
    '# The least privilege k8s-windows doctor needs. Bind it to the user or service account that runs doctor',
    '# (edit the subjects), or: kubectl create clusterrolebinding k8s-windows-doctor --clusterrole k8s-windows-doctor --user NAME',
    stringify(role, { lineWidth: 0 }).trimEnd(),
    '---',
    stringify(binding, { lineWidth: 0 }).trimEnd(),
    '',
  ].join('\n');
}
