/**
 * The tables of the admission policies in docs/admission-policies.md (`npm run docs`), from the rule modules: the rules the cluster
 * enforces (each validation's severity and action, what it looks at, what stays lint's) and the rules that stay in
 * lint, with why as far as the module says it.
 */
import { celOf, checksOf, RULE_MODULES, type RuleModule } from '../lib/core/rules';
import type { CelValidation } from '../lib/core/rules/cel';
import { RULES } from '../lib/core/validate';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const ACTION = { error: 'Deny', warning: 'Warn', info: 'not enforced' } as const;

/** One validation as the table shows it: `error → Deny`, with its case, clouds and facts. */
function validationText(rule: RuleModule, v: CelValidation): string {
  const severity =
    v.case === undefined ? rule.meta.defaultSeverity : rule.meta.cases?.find((c) => c.name === v.case)?.severity;
  if (severity === undefined) throw new Error(`${rule.meta.id}: case ${String(v.case)} unknown`);
  const when = [
    ...(v.case !== undefined ? [v.case] : []),
    ...(v.clouds !== undefined ? [`cloud ${v.clouds.join('/')}`] : []),
    ...(v.params === true ? ['with the cluster facts'] : []),
    ...(v.scope !== undefined && v.scope !== celOf(rule)?.scope
      ? [v.scope === 'runtimeclass' ? 'RuntimeClasses' : 'pods']
      : []),
  ];
  return `${when.length > 0 ? `${when.join(', ')}: ` : ''}${severity} → ${ACTION[severity]}`;
}

const byId = new Map<string, RuleModule>((RULE_MODULES as readonly RuleModule[]).map((m) => [m.meta.id, m]));
const ordered = RULES.map((r) => byId.get(r.id)!);

/** Why a rule without a CEL form stays in lint, from where its check looks. */
function lintOnlyReason(rule: RuleModule): string {
  if (rule.meta.covers !== undefined) return `an alias of ${rule.meta.covers.join(', ')}`;
  const scopes = checksOf(rule);
  if (scopes.some((c) => c.scope === 'cloud')) return 'checks cloud resources (Pulumi), not Kubernetes objects';
  if (scopes.some((c) => c.scope === 'document')) return 'checks the input documents themselves';
  const kinds = scopes.flatMap((c) => (c.scope === 'object' ? c.kinds : []));
  if (kinds.length > 0 && scopes.every((c) => c.scope === 'object')) return `judged on ${kinds.join(', ')} objects`;
  return 'no CEL form (yet): lint, fix and the constructs judge it';
}

/** The two tables, as markdown. */
export function formatPoliciesMarkdown(): string {
  const enforced = ordered.filter((r) => r.cel !== undefined);
  const lintOnly = ordered.filter((r) => r.cel === undefined);
  const looksAt = (r: RuleModule): string => {
    const form = celOf(r)!;
    const scopes = new Set([form.scope, ...form.validations.map((v) => v.scope ?? form.scope)]);
    return [...scopes].map((s) => (s === 'pod' ? 'Pods, workload templates, CronJobs' : 'RuntimeClasses')).join('; ');
  };
  return [
    '| rule | in the cluster (severity → action in `--mode deny`) | looks at | what only lint judges |',
    '| --- | --- | --- | --- |',
    ...enforced.map(
      (r) =>
        `| [\`${r.meta.id}\`](rules/${r.meta.id}.md) | ${celOf(r)!
          .validations.map((v) => cell(validationText(r, v)))
          .join('<br>')} | ${looksAt(r)} | ${cell(celOf(r)!.limits ?? '—')} |`,
    ),
    '',
    `The ${lintOnly.length} rules that stay in lint:`,
    '',
    '| rule | why |',
    '| --- | --- |',
    ...lintOnly.map((r) => `| [\`${r.meta.id}\`](rules/${r.meta.id}.md) | ${cell(lintOnlyReason(r))} |`),
    '',
  ].join('\n');
}

/** A rule page's section on the admission policies: how the cluster enforces the rule, or why it does not. */
export function clusterSection(rule: RuleModule): string[] {
  const form = celOf(rule);
  if (form === undefined) {
    return ['## In the cluster', '', `Not an admission policy: ${lintOnlyReason(rule)}.`, ''];
  }
  return [
    '## In the cluster',
    '',
    `\`k8s-windows policies\` enforces it (severity → action in \`--mode deny\`):`,
    '',
    ...form.validations.map((v) => `- ${validationText(rule, v)}`),
    '',
    ...(form.limits !== undefined ? [`Only lint judges: ${form.limits}`, ''] : []),
  ];
}

const START = '<!-- policies:start -->';
const END = '<!-- policies:end -->';

/** The policies page's text (docs/admission-policies.md) with the policies' tables regenerated. */
export function withPolicyTables(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/admission-policies.md lacks the ${START} … ${END} markers.`);
  return `${page.slice(0, start + START.length)}\n${formatPoliciesMarkdown()}${page.slice(end)}`;
}
