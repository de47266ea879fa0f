/**
 * The differential check the policy tests share: a rule's CEL form, run as the generated policy by the standalone
 * evaluator, against its TypeScript check, run by the engine on the same object alone (no other objects, no
 * registry, the default target). Both must fail or both pass, per rule; with the default settings both must also
 * act the same (an error denies, a warning warns, info is not enforced).
 */
import { validateManifests } from 'k8s-windows';
import { generatePolicies } from '../../../lib/core/policies';
import { celRules } from '../../../lib/core/policies/validating';
import { SHAPE_RESOURCES, RUNTIMECLASS_RESOURCES } from '../../../lib/core/policies/prelude';
import type { Cloud } from '../../../lib/core/facts/clouds';
import type { RuleSetting } from '../../../lib/core/model/types';
import { evaluatePolicies, type VapError } from '../../helpers/vap-eval';

/** The rules with a CEL form. */
export const CEL_RULE_IDS: readonly string[] = celRules().map((r) => r.meta.id);

/** Every CEL rule at error: every validation is enforced, so the verdicts compare whatever the severity. */
const ALL_ERROR: Readonly<Record<string, RuleSetting>> = Object.fromEntries(CEL_RULE_IDS.map((id) => [id, 'error']));

/** The clouds a differential runs under: none, and each cloud whose words or cases differ. */
export const DIFFERENTIAL_CLOUDS: readonly (Cloud | undefined)[] = [undefined, 'eks', 'aks', 'gke'];

/** `apps/v1 Deployment`…: what the policies match (an apiVersion the API server no longer serves never reaches them). */
const MATCHED_KINDS: ReadonlySet<string> = new Set(
  [...Object.values(SHAPE_RESOURCES).flat(), ...RUNTIMECLASS_RESOURCES].flatMap((r) =>
    r.kinds.map((k) => `${r.apiGroup === '' ? '' : `${r.apiGroup}/`}${r.apiVersion} ${k}`),
  ),
);

const SETS = new Map<string, ReturnType<typeof generatePolicies>['objects']>();
function policySet(cloud: Cloud | undefined, allError: boolean) {
  const key = `${cloud ?? ''}|${allError}`;
  let set = SETS.get(key);
  if (!set) {
    // No system namespaces: what is compared is the rules, not which namespaces the bindings skip.
    set = generatePolicies({
      ...(cloud ? { cloud } : {}),
      ...(allError ? { settings: ALL_ERROR } : {}),
      systemNamespaces: [],
    }).objects;
    SETS.set(key, set);
  }
  return set;
}

/** A disagreement: the object, the rule, and what each side said. */
export interface Mismatch {
  readonly object: string;
  readonly rule: string;
  readonly cloud: string;
  readonly lint: string;
  readonly cel: string;
}

/** Whether the policies match objects of this kind (others are lint's alone). */
export function policiesMatch(object: unknown): boolean {
  const o = object as { apiVersion?: unknown; kind?: unknown } | null;
  return MATCHED_KINDS.has(`${String(o?.apiVersion)} ${String(o?.kind)}`);
}

function describe(object: unknown, label: string): string {
  const o = object as { kind?: unknown; metadata?: { name?: unknown } };
  return `${label} ${String(o.kind)}/${String(o.metadata?.name)}`;
}

/** The disagreements on one object, under every cloud; CEL runtime errors are returned beside them. */
export function differential(
  object: unknown,
  label: string,
  ruleIds: readonly string[] = CEL_RULE_IDS,
): { mismatches: Mismatch[]; errors: (VapError & { object: string })[]; bothFail: string[] } {
  const bothFail: string[] = [];
  const mismatches: Mismatch[] = [];
  const errors: (VapError & { object: string })[] = [];
  if (!policiesMatch(object)) return { mismatches, errors, bothFail };
  const name = describe(object, label);
  for (const cloud of DIFFERENTIAL_CLOUDS) {
    const cloudOption = cloud ? { cloud } : {};
    // Verdicts: every CEL rule at error.
    const lintAll = new Set(validateManifests([object], { ...cloudOption, rules: ALL_ERROR }).map((d) => d.ruleId));
    const celAll = evaluatePolicies(policySet(cloud, true), object);
    errors.push(...celAll.errors.map((e) => ({ ...e, object: name })));
    const celAllIds = new Set(celAll.violations.map((v) => v.ruleId));
    // Actions: the default settings.
    const lintDefault = validateManifests([object], cloudOption);
    const celDefault = evaluatePolicies(policySet(cloud, false), object);
    for (const rule of ruleIds) {
      const lintFails = lintAll.has(rule);
      const celFails = celAllIds.has(rule);
      if (lintFails && celFails && cloud === undefined) bothFail.push(rule);
      const lintActions = [
        ...new Set(
          lintDefault
            .filter((d) => d.ruleId === rule && d.severity !== 'info')
            .map((d) => (d.severity === 'error' ? 'deny' : 'warn')),
        ),
      ].sort();
      const celActions = [
        ...new Set(
          celDefault.violations.filter((v) => v.ruleId === rule).map((v) => (/-deny/.test(v.policy) ? 'deny' : 'warn')),
        ),
      ].sort();
      if (lintFails !== celFails || lintActions.join() !== celActions.join()) {
        const lintText = lintDefault
          .filter((d) => d.ruleId === rule)
          .map((d) => `${d.severity} ${d.path}: ${d.message}`)
          .join(' / ');
        const celText = celAll.violations
          .filter((v) => v.ruleId === rule)
          .map((v) => v.message)
          .join(' / ');
        mismatches.push({
          object: name,
          rule,
          cloud: cloud ?? 'none',
          lint: `${lintFails ? 'fails' : 'passes'} [${lintActions.join()}] ${lintText}`,
          cel: `${celFails ? 'fails' : 'passes'} [${celActions.join()}] ${celText}`,
        });
      }
    }
  }
  return { mismatches, errors, bothFail };
}
