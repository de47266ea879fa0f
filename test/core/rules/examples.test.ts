/**
 * Every rule module's examples (lib/core/rules/<id>.examples.yaml), run as tests (as eslint's RuleTester runs a rule's valid and invalid cases): a
 * failing example reports exactly its findings, at their paths, with their message ids and severities; a passing one reports none of the
 * rule; a fixable rule's fixed text is what `fixManifests` writes, and no finding of the rule is left in it.
 */
import { fixManifests, loadManifests, validateManifests } from 'k8s-windows';
import { RULES_BY_ID } from '../../../lib/core/validate/rules';
import { celOf, checksOf, RULE_MODULES, type RuleModule } from '../../../lib/core/rules';
import { readdirSync } from 'node:fs';
import { readRuleExamples, RULES_DIR } from '../../../scripts/rule-examples';

const findingsOf = (rule: RuleModule, manifests: string, options = {}) =>
  validateManifests(loadManifests(manifests), options).filter((d) => d.ruleId === rule.meta.id);

/** What a message rendered from `template` looks like: its words as written, anything in place of a placeholder. */
const templatePattern = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/\{[A-Za-z_][A-Za-z0-9_]*\}/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*')}$`,
  );

const byId = new Map((RULE_MODULES as readonly RuleModule[]).map((r) => [r.meta.id, r]));

/** The rules checked on manifests; the cloud rules' examples run in test/pulumi/cloud-rule-examples.test.ts. */
const MANIFEST_RULES = (RULE_MODULES as readonly RuleModule[]).filter(
  (r) => !checksOf(r).some((c) => c.scope === 'cloud'),
);

describe.each(MANIFEST_RULES.map((rule) => [rule.meta.id, rule] as const))('%s', (id, rule: RuleModule) => {
  const examples = readRuleExamples(id);

  test('is in the catalogue as its module declares it', () => {
    expect(RULES_BY_ID.get(rule.meta.id)).toEqual(rule.meta);
  });

  test.each(examples.failing.map((e) => [e.title, e] as const))('fails: %s', (_title, example) => {
    const found = findingsOf(rule, example.manifests, example.options);
    const severityOf = (c?: string) =>
      c === undefined ? rule.meta.defaultSeverity : rule.meta.cases?.find((x) => x.name === c)?.severity;
    expect(found.map((d) => [d.path, d.messageId, d.severity])).toEqual(
      example.findings.map((f) => [f.path, f.messageId, severityOf(f.case)]),
    );
    // Each finding says what is wrong on which value, and what to write instead: its message's words, filled in.
    found.forEach((d, i) => {
      const declared = rule.messages?.[d.messageId ?? ''];
      const caseName = example.findings[i]?.case;
      const words = (caseName === undefined ? undefined : declared?.caseMessages?.[caseName]) ?? declared?.message;
      expect(declared?.fix).toEqual(expect.any(String));
      expect(d.message).toMatch(templatePattern(words ?? ''));
      expect(d.fix).toEqual(expect.any(String));
    });
    if (example.fixed !== undefined) {
      const fixed = fixManifests(example.manifests, example.options ?? {});
      expect(fixed.text).toBe(example.fixed === 'unchanged' ? example.manifests : example.fixed);
      expect(findingsOf(rule, fixed.text, example.options)).toEqual([]);
      // A removal says why, in the words of the module whose fixer made it (`fixMeaning.removal`).
      for (const c of fixed.changes.filter((x) => x.action === 'removed')) {
        expect([c.ruleId, byId.get(c.ruleId)?.fixMeaning?.removal]).toEqual([c.ruleId, expect.any(String)]);
        expect(c.message).toContain(`: ${byId.get(c.ruleId)?.fixMeaning?.removal} (${c.ruleId}).`);
      }
    }
  });

  test.each(examples.passing.map((e) => [e.title, e] as const))('passes: %s', (_title, example) => {
    expect(findingsOf(rule, example.manifests, example.options)).toEqual([]);
  });

  test('a fixable rule shows its fix in an example; every case has one', () => {
    if (rule.meta.fixable !== undefined) expect(examples.failing.some((e) => e.fixed !== undefined)).toBe(true);
    // A case only builders report (a spelling their props normalised) has no manifest to show; nor has a case only an
    // admission policy's cluster-facts validation reports (lint never sees the facts): test/core/policies holds it.
    const clusterOnly = new Set(
      (celOf(rule)?.validations ?? []).filter((v) => v.params === true && v.case !== undefined).map((v) => v.case),
    );
    for (const c of (rule.meta.cases ?? []).filter((x) => x.buildersOnly !== true)) {
      if (clusterOnly.has(c.name)) continue;
      expect(examples.failing.some((e) => e.findings.some((f) => f.case === c.name))).toBe(true);
    }
  });
});

test('every examples file belongs to a rule module', () => {
  const ids = new Set<string>(RULE_MODULES.map((r) => r.meta.id));
  const files = readdirSync(RULES_DIR).filter((f) => f.endsWith('.examples.yaml'));
  expect(files.filter((f) => !ids.has(f.replace(/\.examples\.yaml$/, '')))).toEqual([]);
});
