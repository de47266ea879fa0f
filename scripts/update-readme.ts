/**
 * `npm run docs`: writes the rule catalogue into docs/rules.md between its `rules` markers (and the admission
 * policies' tables into docs/admission-policies.md between its `policies` markers), from `RULES`, a page per
 * rule module into docs/rules/, so neither lists a rule the code does not have nor an example it does not run, and
 * docs/facts.md from lib/core/facts.
 * test/readme.test.ts fails when they disagree with the code.
 */
import { mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { RULE_MODULES } from '../lib/core/rules';
import { RULES } from '../lib/core/validate';
import { readRuleExamples } from './rule-examples';
import { formatRulePage } from './rule-page';
import { formatRulesMarkdown } from '../lib/cli/format-rules';
import { FACTS_PAGE, formatFactsPage } from './facts-page';
import { withPolicyTables } from './policies-table';

export const RULE_PAGES = path.join(__dirname, '..', 'docs', 'rules');

/** Each rule module's page: file name → text. */
export function rulePages(): Map<string, string> {
  return new Map(
    RULE_MODULES.map((rule) => [
      `${rule.meta.id}.md`,
      formatRulePage(rule, readRuleExamples(rule.meta.id), `lib/core/rules/${rule.meta.id}.ts`),
    ]),
  );
}

/** The catalogue's link of a rule (from docs/rules.md): its page when it has one, else its upstream documentation. */
const PAGED: ReadonlySet<string> = new Set(RULE_MODULES.map((r) => r.meta.id));
const linkOf = (id: string, docs: string): string => (PAGED.has(id) ? `rules/${id}.md` : docs);

/** The page that carries the rule catalogue between its `rules` markers. */
export const CATALOGUE_PAGE = path.join(__dirname, '..', 'docs', 'rules.md');
/** The page that carries the admission policies' tables between its `policies` markers. */
export const POLICIES_PAGE = path.join(__dirname, '..', 'docs', 'admission-policies.md');
const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';

/** The catalogue page's text with the catalogue section regenerated. */
export function withRuleCatalogue(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/rules.md lacks the ${START} … ${END} markers.`);
  return `${page.slice(0, start + START.length)}\n${formatRulesMarkdown(RULES, linkOf)}${page.slice(end)}`;
}

if (require.main === module) {
  writeFileSync(CATALOGUE_PAGE, withRuleCatalogue(readFileSync(CATALOGUE_PAGE, 'utf8')));
  writeFileSync(POLICIES_PAGE, withPolicyTables(readFileSync(POLICIES_PAGE, 'utf8')));
  mkdirSync(RULE_PAGES, { recursive: true });
  const pages = rulePages();
  for (const old of readdirSync(RULE_PAGES)) if (!pages.has(old)) unlinkSync(path.join(RULE_PAGES, old));
  for (const [file, text] of pages) writeFileSync(path.join(RULE_PAGES, file), text);
  writeFileSync(FACTS_PAGE, formatFactsPage());
  process.stdout.write(
    `docs/rules.md: ${RULES.length} rules; docs/admission-policies.md; docs/rules: ${pages.size} pages; docs/facts.md\n`,
  );
}
