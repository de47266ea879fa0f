/**
 * Issue 25: a rule's messages are declared by id in its module, each with its front doors' fixes, and typed as
 * typescript-eslint's `RuleCreator` types `messageId`: a check can report only the ids its module declares
 * (`tsc -p tsconfig.json` checks the `@ts-expect-error` lines below).
 */
import { loadManifests, validateManifests } from 'k8s-windows';
import { checksOf, defineRule, RULE_MODULES, type RuleModule } from '../../lib/core/rules';
import { readRuleExamples } from '../../scripts/rule-examples';
import { frontDoorText } from '../../lib/core/rules/front-door';
import { toWindowsPodSpec } from '../../lib/core/pod-spec';
import { WindowsValidationError } from '../../lib/core/errors';
import { inertFieldLeftOut } from '../../lib/core/rules/windows-forbidden-field';
import { Testing } from 'cdk8s';
import { WindowsAnnotations, WindowsDeployment } from 'k8s-windows/cdk8s';
import { IIS, silenceWarnings } from '../helpers/cdk8s';

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
    messages: { declared: { description: 'the one message', message: '{path}: m', fix: 'f' } },
    check: {
      scope: 'pod',
      run(_p, _context, report) {
        report({ path: 'spec', messageId: 'declared' });
        // @ts-expect-error an id the module does not declare
        report({ path: 'spec', messageId: 'undeclared' });
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
        report({ path: 'spec', messageId: 'any' });
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
  // The host-port fixes are per message: a finding without its message id gets none of them.
  expect(frontDoorText('windows-host-port', 'cdk8s', finding)).toBeUndefined();
  // A rule-level fix holds for every message of its rule.
  expect(frontDoorText('windows-tcp-probe', 'cdk8s', finding, 'tcp-probe')?.fix).toEqual(expect.any(String));
  expect(frontDoorText('windows-host-port', 'pulumi', finding, 'host-network')).toBeUndefined();
});

/**
 * The rules checked on manifests (pods, objects, documents); the cloud rules are held to the same in
 * test/pulumi/cloud-rule-examples.test.ts, where their examples run (provider resources and components under mocks).
 */
const MANIFEST_RULES = (RULE_MODULES as readonly RuleModule[]).filter(
  (r) => !checksOf(r).some((c) => c.scope === 'cloud'),
);

/** Messages no example shows, with why; each is checked by a test of its own below. */
const WITHOUT_EXAMPLE: Readonly<Record<string, readonly string[]>> = {
  // A credential spec over 64 KiB has no place on the rule's page.
  'gmsa-inline-spec-size': ['too-large'],
  // A note only constructs give: a forbidden field a prop sets to what Windows does anyway is left out.
  'windows-forbidden-field': ['inert-left-out'],
};

test.each(MANIFEST_RULES.map((r) => [r.meta.id, r] as const))(
  '%s: every finding of its failing examples names a message its module declares, and each is used',
  (id, rule) => {
    const declared = Object.keys(rule.messages ?? {});
    expect(declared.length).toBeGreaterThan(0);
    const used = new Set<string | undefined>();
    for (const example of readRuleExamples(id).failing) {
      const found = validateManifests(loadManifests(example.manifests), example.options).filter((d) => d.ruleId === id);
      expect(found.length).toBeGreaterThan(0);
      for (const d of found) {
        expect(declared).toContain(d.messageId);
        used.add(d.messageId);
      }
    }
    // A declared message no example shows is either dead or untested.
    expect(declared.filter((m) => !used.has(m))).toEqual(WITHOUT_EXAMPLE[id] ?? []);
  },
);

test('windows-forbidden-field: a cdk8s prop set to what Windows does anyway is the inert-left-out note', () => {
  const emit = silenceWarnings();
  try {
    const chart = Testing.chart();
    const web = new WindowsDeployment(chart, 'web', {
      containers: [{ image: IIS, securityContext: { privileged: false } }],
    });
    Testing.synth(chart);
    expect(WindowsAnnotations.warningsOf(web)).toEqual([
      expect.objectContaining({
        ruleId: 'windows-forbidden-field',
        message: expect.stringMatching(
          /^\[windows-forbidden-field\] spec\.template\.spec\.containers\[0\]\.securityContext\.privileged: securityContext\.privileged: false is left out of the manifest: /,
        ),
      }),
    ]);
  } finally {
    emit.mockRestore();
  }
  expect(inertFieldLeftOut('spec.containers[0].securityContext.privileged', 'privileged', 'privileged', false)).toEqual(
    expect.objectContaining({ ruleId: 'windows-forbidden-field', messageId: 'inert-left-out' }),
  );
});

test('gmsa-inline-spec-size: a credential spec over 64 KiB is the too-large message', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: {
      os: { name: 'windows' },
      securityContext: { windowsOptions: { gmsaCredentialSpec: 'x'.repeat(65537) } },
      containers: [{ name: 'web', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022' }],
    },
  };
  const found = validateManifests([pod]).filter((d) => d.ruleId === 'gmsa-inline-spec-size');
  expect(found.map((d) => [d.path, d.messageId])).toEqual([
    ['spec.securityContext.windowsOptions.gmsaCredentialSpec', 'too-large'],
  ]);
});
