/**
 * Issue 37: a rule's CEL message says its lint message's words. A validation that names a message
 * (`message: { messageId, data }`) is built from that message's template; one that still writes its own
 * messageExpression must carry every word of one of its rule's templates, so a template edited without its CEL form
 * (or the reverse) fails here. The validations listed below word their CEL message otherwise today (one message
 * for every container at once, another order): making them one would change the generated policies, so they are
 * listed, and the list fails when one of them comes to agree.
 */
import { celOf, defineRule, RULE_MODULES, type RuleMessage, type RuleModule } from '../../../lib/core/rules';
import { celMessageExpression, CelMessageError } from '../../../lib/core/rules/cel';

const MODULES = RULE_MODULES as readonly RuleModule[];

/** `<rule id>#<index of the validation>`: CEL words that differ from lint's today (see above). */
const WORDED_OTHERWISE: ReadonlySet<string> = new Set([
  'windows-forbidden-field#0',
  'windows-run-as-non-root-image-user#0',
  'gmsa-inline-spec-size#1',
  'hostprocess-all-or-none#0',
  'hostprocess-run-as-user-name#0',
  'hostprocess-run-as-user-name#1',
  'hostprocess-run-as-user-name#2',
  'gmsa-init-container#0',
  'windows-node-selector-missing#4',
  'windows-node-selector-missing#5',
  'windows-toleration-missing#2',
  'wildcard-toleration#1',
  'windows-build-retired#0',
  'windows-build-retired#2',
  'windows-isolation-annotation#0',
  'image-build-mismatch#0',
  'image-build-mismatch#2',
  'image-sac#0',
  'windows-host-port#0',
  'windows-emptydir-memory#0',
  'memory-too-small#0',
]);

/** The words of a CEL expression's string literals, unescaped, one after another (`\0` between literals). */
function celWords(expression: string): string {
  const out: string[] = [];
  for (const m of expression.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)) {
    out.push((m[1] ?? m[2]).replace(/\\(.)/g, '$1'));
  }
  return out.join('\0');
}

/** The words of a message's templates (its words in `caseName`, then its fix) between their placeholders. */
function templateWords(m: RuleMessage, caseName: string | undefined): string[] {
  const words = (caseName === undefined ? undefined : m.caseMessages?.[caseName]) ?? m.message;
  return [words, m.fix ?? ''].flatMap((t) =>
    t
      .split(/\{[A-Za-z_][A-Za-z0-9_]*\}/)
      .map((w) => w.trim())
      .filter((w) => w.length > 2),
  );
}

/** The messages of `rule` whose every word `expression` says (a template of placeholders alone says none). */
function messagesSaid(rule: RuleModule, expression: string, caseName: string | undefined): string[] {
  const said = celWords(expression);
  return Object.entries<RuleMessage>(rule.messages ?? {})
    .map(([id, m]) => [id, templateWords(m, caseName)] as const)
    .filter(([, words]) => words.length > 0 && words.every((w) => said.includes(w)))
    .map(([id]) => id);
}

const VALIDATIONS = MODULES.flatMap((rule) =>
  (celOf(rule)?.validations ?? []).map((v, i) => [`${rule.meta.id}#${i}` as string, rule, v] as const),
);

test.each(VALIDATIONS.map(([key, rule, v]) => [key, rule, v] as const))(
  '%s says the words of a message its rule declares',
  (key, rule, v) => {
    const said = messagesSaid(rule, v.messageExpression, v.case);
    if (v.messageId !== undefined) expect(said).toContain(v.messageId);
    else if (WORDED_OTHERWISE.has(key)) expect(said).toEqual([]);
    else expect(said).not.toEqual([]);
  },
);

test('the validations worded otherwise are validations of the catalogue, none built from a message', () => {
  const byKey = new Map(VALIDATIONS.map(([key, , v]) => [key, v]));
  for (const key of WORDED_OTHERWISE) expect([key, byKey.get(key)?.messageId]).toEqual([key, undefined]);
  expect(VALIDATIONS.filter(([, , v]) => v.messageId !== undefined).length).toBeGreaterThan(0);
});

test('a message expression is the template, words as CEL literals and placeholders as CEL', () => {
  expect(
    celMessageExpression('r', '{path} {value}: is wrong. Fix {field}.', {
      path: { text: 'hostNetwork' },
      value: 'string(object.x)',
      field: { text: "it's" },
    }),
  ).toBe("'r: hostNetwork ' + string(object.x) + ': is wrong. Fix it\\'s.'");
  expect(celMessageExpression('r', '{list}', { list: 'a.join(", ")' })).toBe(`'r: ' + a.join(", ")`);
});

test('a form naming a message its rule does not declare, or leaving placeholders without data, says every problem', () => {
  const rule = defineRule({
    meta: {
      id: 'test-rule',
      family: 'pod-features',
      defaultSeverity: 'error',
      summary: 'A rule for this test.',
      rationale: 'A test.',
      docs: 'https://example.com/',
      severityReason: 'A test.',
    },
    messages: { wrong: { description: 'A wrong value.', message: '{path} {value}: wrong.', fix: 'Set {field}.' } },
    check: { scope: 'pod', run: () => undefined },
    // @ts-expect-error a form can name only the messages its module declares ('other' is not one)
    cel: () => ({
      scope: 'pod',
      validations: [
        { expression: 'true', message: { messageId: 'wrong', data: { path: { text: 'x' } } } },
        { expression: 'true', message: { messageId: 'other' } },
      ],
    }),
  }) as RuleModule;
  expect(() => celOf(rule)).toThrow(CelMessageError);
  expect(() => celOf(rule)).toThrow(
    "rule test-rule: CEL message: message 'wrong': no data for {value}; message 'wrong': no data for {field}; message 'other' is not declared",
  );
});
