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
