/** `k8s-windows rules [id]`: the rule list in text, JSON or Markdown, or one rule's page. */
import { RULES, RULES_BY_ID } from '../core/validate';
import { UsageError, type RulesCommand } from './args';
import { formatRulesJson, formatRulesMarkdown, formatRulesText, ruleJson } from './format-rules';
import { EXIT_OK, type CliIO } from './io';
import { formatRulePage } from './rule-page';

export function runRules(command: RulesCommand, io: CliIO): number {
  if (command.id !== undefined) {
    const rule = RULES_BY_ID.get(command.id);
    if (rule === undefined) throw new UsageError([`unknown rule '${command.id}'.`], 'rules');
    io.stdout.write(command.format === 'json' ? `${JSON.stringify(ruleJson(rule), null, 2)}\n` : formatRulePage(rule));
    return EXIT_OK;
  }
  switch (command.format) {
    case 'text':
      io.stdout.write(formatRulesText(RULES));
      break;
    case 'json':
      io.stdout.write(formatRulesJson(RULES));
      break;
    case 'markdown':
      io.stdout.write(formatRulesMarkdown(RULES));
      break;
    default: {
      const unknownFormat: never = command.format;
      throw new Error(`unhandled format ${String(unknownFormat)}`);
    }
  }
  return EXIT_OK;
}
