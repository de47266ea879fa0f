/**
 * `npm run docs`: writes the rule catalogue into README.md between its `rules` markers (and the admission policies'
 * tables between its `policies` markers), from `RULES`, a page per
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

/** The README link of a rule: its page when it has one, else its upstream documentation. */
const PAGED: ReadonlySet<string> = new Set(RULE_MODULES.map((r) => r.meta.id));
const linkOf = (id: string, docs: string): string => (PAGED.has(id) ? `docs/rules/${id}.md` : docs);

export const README = path.join(__dirname, '..', 'README.md');
const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';

/** The README text with the catalogue section regenerated. */
export function withRuleCatalogue(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${START} … ${END} markers.`);
  return `${readme.slice(0, start + START.length)}\n${formatRulesMarkdown(RULES, linkOf)}${readme.slice(end)}`;
}

if (require.main === module) {
  writeFileSync(README, withPolicyTables(withRuleCatalogue(readFileSync(README, 'utf8'))));
  mkdirSync(RULE_PAGES, { recursive: true });
  const pages = rulePages();
  for (const old of readdirSync(RULE_PAGES)) if (!pages.has(old)) unlinkSync(path.join(RULE_PAGES, old));
  for (const [file, text] of pages) writeFileSync(path.join(RULE_PAGES, file), text);
  writeFileSync(FACTS_PAGE, formatFactsPage());
  process.stdout.write(`README.md: ${RULES.length} rules; docs/rules: ${pages.size} pages; docs/facts.md\n`);
}
