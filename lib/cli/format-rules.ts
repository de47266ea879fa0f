/** Output of `k8s-windows rules`: the rule catalogue as an aligned table or as JSON. */
import type { RuleInfo } from '../core/model/types';
import { ruleMessages } from '../core/rules/front-door';

/** `ID  SEVERITY  SUMMARY` with columns padded to the longest entry, sorted as the catalogue is; `[fixable]` marks what `fix` fixes. */
export function formatRulesText(rules: readonly RuleInfo[]): string {
  const header = { id: 'RULE', severity: 'SEVERITY', summary: 'SUMMARY' };
  const rows = [
    header,
    ...rules.map((r) => ({
      id: r.id,
      severity: r.defaultSeverity,
      summary: r.fixable !== undefined ? `${r.summary} [fixable]` : r.summary,
    })),
  ];
  const idWidth = Math.max(...rows.map((r) => r.id.length));
  const sevWidth = Math.max(...rows.map((r) => r.severity.length));
  const lines = rows.map((r) => `${r.id.padEnd(idWidth)}  ${r.severity.padEnd(sevWidth)}  ${r.summary}`);
  return `${lines.join('\n')}\n`;
}

/** A rule's catalogue entry and, when its module declares them, its messages by id (what findings' `messageId` names). */
export type RuleJson = RuleInfo & { readonly messages?: Readonly<Record<string, { readonly description: string }>> };

/** `rule` as `rules --format json` gives it: the catalogue entry, with its messages' descriptions by id. */
export function ruleJson(rule: RuleInfo): RuleJson {
  const messages = Object.entries(ruleMessages(rule.id) ?? {});
  if (messages.length === 0) return rule;
  return { ...rule, messages: Object.fromEntries(messages.map(([id, m]) => [id, { description: m.description }])) };
}

/** The catalogue as `RULES` holds it, each rule with its messages by id, pretty-printed. */
export function formatRulesJson(rules: readonly RuleInfo[]): string {
  return `${JSON.stringify(rules.map(ruleJson), null, 2)}\n`;
}

/**
 * The catalogue as the Markdown table docs/rules.md carries between its `rules` markers (`npm run docs`); `link` says
 * where a rule's id points (its page, or its upstream documentation).
 */
export function formatRulesMarkdown(
  rules: readonly RuleInfo[],
  link: (id: string, docs: string) => string = (_id, docs) => docs,
): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '| rule | severity | family | what it finds | why | why this severity | `fix` |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rules.map(
      (r) =>
        `| [\`${r.id}\`](${link(r.id, r.docs)}) | ${r.defaultSeverity} | ${r.family} | ${cell(r.summary)} | ${cell(r.rationale)} | ${cell(r.severityReason)} | ${r.fixable !== undefined ? cell(r.fixable) : '—'} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
