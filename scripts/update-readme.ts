/**
 * `npm run docs`: writes the rule catalogue into README.md between its `rules` markers, from `RULES`, so the README
 * never lists a rule the code does not have. test/readme.test.ts fails when they disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { RULES } from '../lib/core/validate';
import { formatRulesMarkdown } from '../lib/cli/format-rules';

export const README = path.join(__dirname, '..', 'README.md');
const START = '<!-- rules:start -->';
const END = '<!-- rules:end -->';

/** The README text with the catalogue section regenerated. */
export function withRuleCatalogue(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${START} … ${END} markers.`);
  return `${readme.slice(0, start + START.length)}\n${formatRulesMarkdown(RULES)}${readme.slice(end)}`;
}

if (require.main === module) {
  writeFileSync(README, withRuleCatalogue(readFileSync(README, 'utf8')));
  process.stdout.write(`README.md: ${RULES.length} rules\n`);
}
