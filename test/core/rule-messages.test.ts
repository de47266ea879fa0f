/**
 * Issue 25: a rule's messages are declared by id in its module, each with its front doors' fixes, and typed as
 * typescript-eslint's `RuleCreator` types `messageId`: a check can report only the ids its module declares
 * (`tsc -p tsconfig.json` checks the `@ts-expect-error` lines below).
 */
import { defineRule, RULE_MODULES } from '../../lib/core/rules';
import { frontDoorText } from '../../lib/core/rules/front-door';
import { toWindowsPodSpec } from '../../lib/core/pod-spec';
import { WindowsValidationError } from '../../lib/core/errors';

test('a check reports only the message ids its module declares', () => {
  const rule = defineRule({
    meta: {
      id: 'example-rule',
      family: 'pod-features',
      defaultSeverity: 'error',
      summary: 's',
      rationale: 'r',
      docs: 'https://kubernetes.io/',
      severityReason: 'w',
    },
    messages: { declared: { description: 'the one message' } },
    check: {
      scope: 'pod',
      run(_p, _context, report) {
        report('spec', 'm', 'f', undefined, 'declared');
        // @ts-expect-error an id the module does not declare
        report('spec', 'm', 'f', undefined, 'undeclared');
      },
    },
  });
  expect(Object.keys(rule.messages ?? {})).toEqual(['declared']);
  const noMessages = defineRule({
    meta: { ...rule.meta, id: 'example-rule-2' },
    check: {
      scope: 'pod',
      run(_p, _context, report) {
        // @ts-expect-error a rule that declares no messages names none
        report('spec', 'm', 'f', undefined, 'any');
      },
    },
  });
  expect(noMessages.messages).toBeUndefined();
});

test('every declared message has a description; the ids a construct reports are declared', () => {
  for (const rule of RULE_MODULES) {
    for (const m of Object.values<{ description: string }>(rule.messages ?? {})) {
      expect(m.description.length).toBeGreaterThan(10);
    }
  }
  let issues: readonly { ruleId?: string; messageId?: string; fix?: string }[] = [];
  try {
    toWindowsPodSpec({
      hostNetwork: true,
      containers: [
        {
          name: 'a',
          image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022',
          ports: [{ containerPort: 80, hostPort: 8080 }],
        },
      ],
    });
  } catch (e) {
    if (!(e instanceof WindowsValidationError)) throw e;
    issues = e.issues;
  }
  expect(issues).toEqual([expect.objectContaining({ ruleId: 'windows-host-port', messageId: 'host-network' })]);
});

test("a front door's fix is the message's own, else the rule's", () => {
  const finding = { path: 'spec.containers[0].ports[0].hostPort' };
  expect(frontDoorText('windows-host-port', 'cdk8s', finding, 'host-network')?.fix).toMatch(
    /remove `hostNetwork: true`/,
  );
  expect(frontDoorText('windows-host-port', 'cdk8s', finding, 'host-process')?.fix).toBe(
    'Remove `hostPort` from the port (it defaults to the container port) or make it equal to `number`.',
  );
  expect(frontDoorText('windows-host-port', 'cdk8s', finding)?.fix).toBe(
    'Remove `hostPort` from the port (it defaults to the container port) or make it equal to `number`.',
  );
  expect(frontDoorText('windows-host-port', 'pulumi', finding, 'host-network')).toBeUndefined();
});
