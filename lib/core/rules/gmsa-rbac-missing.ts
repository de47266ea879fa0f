/**
 * gmsa-rbac-missing: the gMSA webhook asks a SubjectAccessReview (verb `use`, resource
 * `windows.k8s.io/gmsacredentialspecs`, the credspec's name) for the pod's ServiceAccount and rejects the pod
 * without the grant (https://kubernetes.io/docs/tasks/configure-pod-container/configure-gmsa/#configure-cluster-role-to-enable-rbac-on-specific-gmsa-credential-specs).
 */
import { gmsaGrant, rbacConcerns } from '../model/context';
import { credspecNames, serviceAccountOf } from '../model/credspecs';
import { GMSA } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'gmsa-rbac-missing',
    family: 'gmsa',
    defaultSeverity: 'error',
    summary: "No Role/ClusterRole and binding grants the pod's ServiceAccount `use` on its credspec.",
    rationale:
      'The gMSA webhook asks a SubjectAccessReview (verb use, windows.k8s.io/gmsacredentialspecs) and rejects the pod without the grant.',
    docs: GMSA,
    severityReason:
      "The gMSA webhook rejects the pod. Error only when the pod's own file holds RBAC for its ServiceAccount or for the credspec; otherwise the grant may live elsewhere (info).",
    cases: [
      {
        name: 'rbac-elsewhere',
        severity: 'info',
        when: "The pod's file holds no RBAC for its ServiceAccount or for the credspec: the grant may live in the cluster already.",
      },
    ],
  },
  messages: {
    'no-grant': {
      description: 'No Role/ClusterRole and binding of the set grants the ServiceAccount `use` on the credspec.',
      message:
        "ServiceAccount '{namespace}/{sa}' has no Role or ClusterRole bound to it granting 'use' on GMSACredentialSpec '{name}', though its file holds RBAC for it: the gMSA webhook rejects the pod.",
      caseMessages: {
        'rbac-elsewhere':
          "Nothing in the input grants ServiceAccount '{namespace}/{sa}' 'use' on GMSACredentialSpec '{name}'; unless the cluster has that grant, the gMSA webhook rejects the pod.",
      },
      fix: "Add a ClusterRole with rules [{ apiGroups: [windows.k8s.io], resources: [gmsacredentialspecs], verbs: [use], resourceNames: [{name}] }] and a RoleBinding in '{namespace}' to ServiceAccount '{sa}'.",
    },
  },
  check: {
    scope: 'pod',
    run(p, { index, local }, report) {
      const sa = serviceAccountOf(p);
      for (const [name, path] of credspecNames(p)) {
        if (gmsaGrant(index, p.namespace, sa, name) !== 'missing') continue;
        const certain = rbacConcerns(local, p.namespace, sa, name);
        report({
          path,
          messageId: 'no-grant',
          data: {
            name,
            namespace: p.namespace,
            sa,
          },
          case: certain ? undefined : 'rbac-elsewhere',
        });
      }
    },
  },
});
