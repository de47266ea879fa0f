/**
 * windows-os-name: `spec.os.name` must be exactly `linux` or `windows` (NotSupported), and not empty (Required),
 * checked for every pod (kube-apiserver validation.go `validateOS`,
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go).
 */
import { join, own, rec, show } from '../model/util';
import { K8S_WINDOWS_GUIDE } from './docs';
import { API_SERVER_REJECTS_POD, defineRule } from './rule';

const VALID_OS = ['linux', 'windows'];

export default defineRule({
  meta: {
    id: 'windows-os-name',
    family: 'api-server',
    defaultSeverity: 'error',
    summary: 'spec.os.name is empty or not linux/windows.',
    rationale: 'The API server accepts only `linux` and `windows` (NotSupported) and refuses an empty name (Required).',
    docs: K8S_WINDOWS_GUIDE,
    ...API_SERVER_REJECTS_POD,
    fixable: "Lower-cases 'Windows' or 'Linux'; any other value is left to you.",
  },
  messages: {
    empty: {
      description: 'spec.os with an empty name.',
      message: 'spec.os.name is empty: Required value: cannot be empty.',
      fix: "Set os.name to 'windows' for Windows pods or 'linux' for Linux pods.",
    },
    unsupported: {
      description: 'spec.os.name other than linux or windows (a capitalised Windows among them).',
      message: 'spec.os.name {name} is not supported: supported values: "linux", "windows".',
      fix: '{fix}',
    },
  },
  check: {
    scope: 'pod',
    run(p, _context, report) {
      const os = own(p.spec, 'os');
      if (os === undefined || os === null) return;
      const name = rec(p.spec, 'os')?.name;
      if (name === undefined || name === null || name === '') {
        report({ path: join(p.path, 'os.name'), messageId: 'empty' });
      } else if (!VALID_OS.includes(name as string)) {
        report({
          path: join(p.path, 'os'),
          messageId: 'unsupported',
          data: {
            name: show(name),
            fix:
              typeof name === 'string' && name.toLowerCase() === 'windows'
                ? "Write 'windows' in lower case."
                : "Use 'windows' or 'linux'.",
          },
        });
      }
    },
  },
  fix: ({ pod }) => {
    const name = rec(pod.spec, 'os')?.name;
    if (typeof name !== 'string') return [];
    const lower = name.toLowerCase();
    return lower !== name && VALID_OS.includes(lower)
      ? [{ op: 'set', path: join(pod.path, 'os.name'), value: lower }]
      : [];
  },
  cel: () => ({
    scope: 'pod',
    validations: [
      {
        expression:
          "!has(variables.spec.os) || (has(variables.spec.os.name) && variables.spec.os.name in ['linux', 'windows'])",
        messageExpression:
          "'windows-os-name: ' + (!has(variables.spec.os.name) || variables.spec.os.name == '' ? \"spec.os.name is empty: Required value: cannot be empty. Set os.name to 'windows' for Windows pods or 'linux' for Linux pods.\" : 'spec.os.name \"' + variables.spec.os.name + '\" is not supported: supported values: \"linux\", \"windows\". ' + (variables.spec.os.name.lowerAscii() == 'windows' ? \"Write 'windows' in lower case.\" : \"Use 'windows' or 'linux'.\"))",
      },
    ],
  }),
});
