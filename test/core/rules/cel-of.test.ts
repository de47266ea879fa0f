/**
 * A rule's CEL form is built on demand (`cel: () => RuleCel`), when policies are generated: `celOf` builds it once
 * and gives the same form after, and nothing for a rule that stays in lint.
 */
import { celOf, defineRule, RULE_MODULES, type RuleModule } from '../../../lib/core/rules';

const MODULES = RULE_MODULES as readonly RuleModule[];

test('celOf builds a form once and gives the same object after', () => {
  let built = 0;
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
    check: { scope: 'pod', run: () => undefined },
    cel: () => {
      built++;
      return { scope: 'pod', validations: [{ expression: 'true', messageExpression: "'never'" }] };
    },
  }) as RuleModule;
  const form = celOf(rule);
  expect(form?.validations.map((v) => v.expression)).toEqual(['true']);
  expect(celOf(rule)).toBe(form);
  expect(built).toBe(1);
});

test('every form of the catalogue builds, and a lint-only rule has none', () => {
  const withForm = MODULES.filter((r) => r.cel !== undefined);
  expect(withForm.length).toBeGreaterThan(0);
  for (const rule of withForm) expect(celOf(rule)?.validations.length).toBeGreaterThan(0);
  const lintOnly = MODULES.find((r) => r.cel === undefined);
  expect(lintOnly).toBeDefined();
  expect(celOf(lintOnly!)).toBeUndefined();
});
