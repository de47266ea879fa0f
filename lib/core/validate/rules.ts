/**
 * The rule catalogue: every rule `validateManifests` can report, with its default severity and why it matters.
 * Ids are stable: users suppress and re-level rules by id, so an id is never renamed or reused.
 */
import { RULE_MODULES, type ModuleRuleId } from '../rules';
import type { RuleFamily, RuleInfo } from '../model/types';

/** A rule id of the catalogue: every rule lives in a module (../rules/<id>.ts). */
export type RuleId = ModuleRuleId;

/** Catalogue order: by family, in this order (every family named, so a new one fails the build here). */
const FAMILY_ORDER: Readonly<Record<RuleFamily, number>> = {
  'api-server': 0,
  'windows-options': 1,
  'host-process': 2,
  gmsa: 3,
  scheduling: 4,
  images: 5,
  'pod-features': 6,
  resources: 7,
  probes: 8,
  services: 9,
  'pod-security': 10,
  'node-pools': 11,
  eks: 12,
  aks: 13,
  gke: 14,
  input: 15,
};

/** The rule catalogue, in the order `k8s-windows rules` lists it: by family, then as registered. */
export const RULES: readonly RuleInfo[] = RULE_MODULES.map(({ meta }): RuleInfo => meta).sort(
  (a, b) => FAMILY_ORDER[a.family] - FAMILY_ORDER[b.family],
);

/** Rule metadata by id. */
export const RULES_BY_ID: ReadonlyMap<string, RuleInfo> = new Map(RULES.map((r) => [r.id, r]));

/**
 * For each rule split out of a broader one, the broader ids that still name it: a rule whose module lists ids in
 * `meta.covers` is an alias of those rules (ids are never renamed, so an old id keeps working in settings and
 * suppressions).
 */
export const RULE_ALIASES: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>();
  for (const { meta } of RULE_MODULES) {
    for (const covered of meta.covers ?? []) out.set(covered, [...(out.get(covered) ?? []), meta.id]);
  }
  return out;
})();

/**
 * The ids a setting or a suppression may name a finding of `ruleId` by, most specific first: its own, the id it was
 * reported under before a split (`formerly`), then the aliases that cover it.
 */
export function ruleNames(ruleId: string, formerly?: string): readonly string[] {
  const aliases = RULE_ALIASES.get(ruleId);
  if (formerly === undefined && aliases === undefined) return [ruleId];
  return [...new Set([ruleId, ...(formerly !== undefined ? [formerly] : []), ...(aliases ?? [])])];
}

/** The first value `get` has for a name of `ruleId` (see `ruleNames`): a rule setting, a suppression. */
export function byRuleName<T>(get: (id: string) => T | undefined, ruleId: string, formerly?: string): T | undefined {
  for (const id of ruleNames(ruleId, formerly)) {
    const v = get(id);
    if (v !== undefined) return v;
  }
  return undefined;
}
