/**
 * windows-os-unset: `spec.os.name: windows` lets the API server check the Windows rules at admission, and Pod
 * Security grants its Windows exemptions only to pods that declare it
 * (https://kubernetes.io/docs/concepts/windows/user-guide/,
 * https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted).
 */
import { namespaceEnforces } from '../model/context';
import { has, join } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { defineRule } from './rule';

export default defineRule({
  meta: {
    id: 'windows-os-unset',
    family: 'api-server',
    defaultSeverity: 'info',
    summary: 'A Windows pod without spec.os.name: windows.',
    rationale:
      'spec.os.name lets the API server check Windows rules at admission and gives the Pod Security restricted exemptions; without it mistakes surface on the node.',
    docs: K8S_WINDOWS_GUIDE,
    severityReason:
      'The pod runs without it; warning only in a namespace that enforces restricted, where the Windows exemptions depend on spec.os.',
    fixable: 'Sets spec.os.name: windows.',
    cases: [
      {
        name: 'restricted-namespace',
        severity: 'warning',
        when: 'The pod runs in a namespace of the input that enforces Pod Security restricted: without spec.os.name: windows it gets none of the Windows exemptions (seccomp, capabilities, allowPrivilegeEscalation).',
      },
    ],
  },
  messages: {
    'os-unset': {
      description: 'A Windows pod without spec.os.name: windows.',
      message:
        'This pod is Windows ({evidence}) but spec.os.name is not set, so the API server does not check the Windows rules at admission.',
      caseMessages: {
        'restricted-namespace':
          "This pod is Windows ({evidence}) but spec.os.name is not set, and namespace '{namespace}' enforces Pod Security restricted: without spec.os.name: windows the pod gets none of the Windows exemptions (seccomp, capabilities, allowPrivilegeEscalation).",
      },
      fix: "Set os: { name: 'windows' }.",
    },
  },
  fixMeaning: { declaresWindows: true },
  check: {
    scope: 'pod',
    run(p, { index }, report) {
      if (!p.windows || has(p.spec, 'os')) return;
      const restricted = namespaceEnforces(index, p.namespace) === 'restricted';
      report({
        path: join(p.path, 'os'),
        messageId: 'os-unset',
        data: { evidence: p.evidence, namespace: p.namespace },
        case: restricted ? 'restricted-namespace' : undefined,
      });
    },
  },
  fix: ({ diagnostic }) => [{ op: 'set', path: join(diagnostic.path, 'name'), value: 'windows' }],
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression: '!variables.windows || has(variables.spec.os)',
        messageExpression:
          "'windows-os-unset: This pod is Windows (' + variables.evidence + \") but spec.os.name is not set, so the API server does not check the Windows rules at admission. Set os: { name: 'windows' }.\"",
      },
    ],
    limits:
      'The RuntimeClass a pod names (its handler, selector) and the namespace that enforces Pod Security restricted (the warning case) are other objects: the policy judges the pod by what it says itself.',
  }),
});
