/**
 * ValidatingAdmissionPolicies and their bindings, generated from the rule modules' CEL forms (the `cel` field of
 * each module in ../rules): one policy per shape (pod, workload, cronjob; or runtimeclass) and action class (deny
 * for errors, warn for warnings, `-cluster` for the validations that read the cluster facts), as POLICIES.md fixes.
 */
import { byRuleName, ruleNames, RULES } from '../validate/rules';
import { celOf, RULE_MODULES, type RuleModule } from '../rules';
import type { CelValidation, CelVariable } from '../rules/cel';
import type { Severity } from '../model/types';
import { SUPPRESS_ANNOTATION_PREFIX } from '../model/types';
import {
  celString,
  celStringList,
  podPrelude,
  POLICY_SHAPES,
  RUNTIMECLASS_RESOURCES,
  runtimeClassPrelude,
  SHAPE_RESOURCES,
  type PolicyShape,
  type ShapeResources,
} from './prelude';
import type { PolicyMode, PolicyObject, PolicyOptions } from './types';

export const ADMISSION_API_VERSION = 'admissionregistration.k8s.io/v1';
/** The API group and version of the cluster facts (cluster-facts.ts). */
export const FACTS_API_VERSION = 'k8s-windows.io/v1alpha1';
export const FACTS_KIND = 'WindowsClusterFacts';
/** The default name of the facts object the `-cluster` bindings reference. */
export const DEFAULT_FACTS_NAME = 'k8s-windows';
export const DEFAULT_NAME_PREFIX = 'k8s-windows';
export const DEFAULT_SYSTEM_NAMESPACES: readonly string[] = ['kube-system', 'kube-public', 'kube-node-lease'];
/** The label that opts a namespace or an object out of the policies (`k8s-windows.io/policies: disabled`). */
export const OPT_OUT_LABEL = 'k8s-windows.io/policies';
export const OPT_OUT_VALUE = 'disabled';
/** The label on every generated object. */
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'k8s-windows' } as const;

/** Where a policy looks: a pod shape, or RuntimeClasses. */
export type PolicyTarget = PolicyShape | 'runtimeclass';

/** What a failed validation does: errors deny, warnings warn (info is not enforced). */
export type ActionClass = 'deny' | 'warn';

/** One validation of a rule, placed: its policy and its severity after the settings. */
export interface PlacedValidation {
  readonly ruleId: string;
  readonly severity: Exclude<Severity, 'info'>;
  readonly validation: CelValidation;
}

/** The rule modules with a CEL form, in catalogue order (RULES): the one list the policies come from. */
export function celRules(): readonly RuleModule[] {
  const byId = new Map<string, RuleModule>((RULE_MODULES as readonly RuleModule[]).map((m) => [m.meta.id, m]));
  return RULES.map((r) => byId.get(r.id)).filter((m): m is RuleModule => m?.cel !== undefined);
}

/** The severity a validation fails at under the settings; undefined when the rule is `off`. */
function severityOf(rule: RuleModule, validation: CelValidation, options: PolicyOptions): Severity | undefined {
  const settings = options.settings ?? {};
  const setting = byRuleName((id) => (Object.hasOwn(settings, id) ? settings[id] : undefined), rule.meta.id);
  if (setting === 'off') return undefined;
  if (setting !== undefined) return setting;
  if (validation.case === undefined) return rule.meta.defaultSeverity;
  const c = rule.meta.cases?.find((x) => x.name === validation.case);
  if (!c) throw new Error(`rule ${rule.meta.id}: its CEL form names case '${validation.case}', which it does not have`);
  return c.severity;
}

/** Whether a validation belongs to the policies of `options.cloud`. */
function forCloud(validation: CelValidation, options: PolicyOptions): boolean {
  return validation.clouds === undefined || validation.clouds.includes(options.cloud ?? 'none');
}

/**
 * A validation as the policy runs it: passed when the object suppresses the rule (unless it is an error the API
 * server itself refuses the object for, as lint keeps reporting those), and its message led by the rule id.
 */
function wrapValidation(rule: RuleModule, validation: CelValidation, severity: Severity): Record<string, unknown> {
  const id = rule.meta.id;
  const names = ruleNames(id);
  const expression =
    rule.meta.rejectedByApiServer === true && severity === 'error'
      ? validation.expression
      : [
          ...names.map((n) => `${celString(`${SUPPRESS_ANNOTATION_PREFIX}${n}`)} in variables.annotations`),
          `variables.waived.exists(w, w in ${celStringList([...names, '*'])})`,
          `(${validation.expression})`,
        ].join(' || ');
  const lead = `'${id}: `;
  const messageExpression = validation.messageExpression.trim().startsWith(lead)
    ? validation.messageExpression
    : `${celString(`${id}: `)} + (${validation.messageExpression})`;
  return {
    expression,
    messageExpression,
    message: `${id}: ${rule.meta.summary}`,
    reason: 'Invalid',
  };
}

/** The name of a policy (and its binding). */
export function policyName(prefix: string, target: PolicyTarget, action: ActionClass, cluster: boolean): string {
  return `${prefix}-${target}-${action}${cluster ? '-cluster' : ''}`;
}

/** The binding's validationActions for a class under a mode (POLICIES.md "Modes"). */
export function validationActions(mode: PolicyMode, action: ActionClass): readonly string[] {
  switch (mode) {
    case 'deny':
      return action === 'deny' ? ['Deny'] : ['Warn'];
    case 'warn':
      return action === 'deny' ? ['Warn', 'Audit'] : ['Warn'];
    case 'audit':
      return ['Audit'];
    default: {
      const never: never = mode;
      throw new Error(`unknown mode ${String(never)}`);
    }
  }
}

function resourceRules(resources: readonly ShapeResources[]): Record<string, unknown>[] {
  return resources.map((r) => ({
    apiGroups: [r.apiGroup],
    apiVersions: [r.apiVersion],
    operations: ['CREATE', 'UPDATE'],
    resources: [...r.resources],
  }));
}

/** The matchCondition that leaves the objects the user names alone; undefined when none are named. */
export function exclusionCondition(options: PolicyOptions): Record<string, unknown> | undefined {
  const exclude = options.exclude ?? [];
  if (exclude.length === 0) return undefined;
  const terms = exclude.map((e) =>
    [
      `object.metadata.name == ${celString(e.name)}`,
      ...(e.namespace !== undefined ? [`request.namespace == ${celString(e.namespace)}`] : []),
      ...(e.kind !== undefined ? [`request.kind.kind == ${celString(e.kind)}`] : []),
    ].join(' && '),
  );
  return {
    name: 'k8s-windows-not-excluded',
    expression: `!(${terms.map((t) => `(${t})`).join(' || ')})`,
  };
}

/**
 * The matchCondition that checks an UPDATE only when it changes the pod spec: a pod created before the policies (or
 * while they were off) must still take the metadata updates the cluster makes (a finalizer removed on deletion, a
 * label, an owner reference), and its spec is immutable but for a few fields anyway.
 */
const SPEC_CHANGED = {
  name: 'k8s-windows-spec-changed',
  expression: "request.operation != 'UPDATE' || oldObject == null || object.spec != oldObject.spec",
} as const;

interface PolicyGroup {
  readonly target: PolicyTarget;
  readonly action: ActionClass;
  readonly cluster: boolean;
  readonly rules: { rule: RuleModule; validations: { validation: CelValidation; severity: Severity }[] }[];
}

/** Every policy's rules and validations, by policy, in a stable order. */
function groups(options: PolicyOptions): PolicyGroup[] {
  const out = new Map<string, PolicyGroup>();
  const targets = (rule: RuleModule, validation: CelValidation): readonly PolicyTarget[] =>
    (validation.scope ?? celOf(rule)?.scope) === 'runtimeclass' ? ['runtimeclass'] : POLICY_SHAPES;
  for (const rule of celRules()) {
    for (const validation of celOf(rule)?.validations ?? []) {
      if (!forCloud(validation, options)) continue;
      const severity = severityOf(rule, validation, options);
      if (severity === undefined || severity === 'info') continue;
      const action: ActionClass = severity === 'error' ? 'deny' : 'warn';
      const cluster = validation.params === true;
      for (const target of targets(rule, validation)) {
        const key = `${target}|${action}|${cluster}`;
        let group = out.get(key);
        if (!group) {
          group = { target, action, cluster, rules: [] };
          out.set(key, group);
        }
        let entry = group.rules.find((r) => r.rule === rule);
        if (!entry) {
          entry = { rule, validations: [] };
          group.rules.push(entry);
        }
        entry.validations.push({ validation, severity });
      }
    }
  }
  const order = (g: PolicyGroup) =>
    [...POLICY_SHAPES, 'runtimeclass'].indexOf(g.target) * 4 + (g.action === 'deny' ? 0 : 2) + (g.cluster ? 1 : 0);
  return [...out.values()].sort((a, b) => order(a) - order(b));
}

/** The variables of a policy: the prelude of its target, then its rules' own, each name once. */
function policyVariables(group: PolicyGroup): CelVariable[] {
  const prelude = group.target === 'runtimeclass' ? runtimeClassPrelude() : podPrelude(group.target);
  const out: CelVariable[] = [...prelude];
  const seen = new Map<string, string>(prelude.map((v) => [v.name, 'the prelude']));
  for (const { rule } of group.rules) {
    const scope = group.target === 'runtimeclass' ? 'runtimeclass' : 'pod';
    const form = celOf(rule);
    for (const v of form?.variables ?? []) {
      if ((v.scope ?? form?.scope) !== scope) continue;
      const taken = seen.get(v.name);
      if (taken !== undefined) {
        throw new Error(`rule ${rule.meta.id}: CEL variable '${v.name}' is already declared by ${taken}`);
      }
      seen.set(v.name, `rule ${rule.meta.id}`);
      out.push(v);
    }
  }
  return out;
}

/** The ValidatingAdmissionPolicies and their bindings (policies first), as `options` asks. */
export function validatingPolicies(options: PolicyOptions = {}): PolicyObject[] {
  const prefix = options.namePrefix ?? DEFAULT_NAME_PREFIX;
  const mode = options.mode ?? 'deny';
  const system = options.systemNamespaces ?? DEFAULT_SYSTEM_NAMESPACES;
  const exclusion = exclusionCondition(options);
  const policies: PolicyObject[] = [];
  const bindings: PolicyObject[] = [];
  for (const group of groups(options)) {
    const name = policyName(prefix, group.target, group.action, group.cluster);
    const resources = group.target === 'runtimeclass' ? RUNTIMECLASS_RESOURCES : SHAPE_RESOURCES[group.target];
    policies.push({
      apiVersion: ADMISSION_API_VERSION,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name, labels: { ...MANAGED_BY } },
      spec: {
        // A CEL runtime error (or an unexpected object) must never block a cluster: the policy is then skipped.
        failurePolicy: 'Ignore',
        ...(group.cluster ? { paramKind: { apiVersion: FACTS_API_VERSION, kind: FACTS_KIND } } : {}),
        matchConstraints: {
          resourceRules: resourceRules(resources),
          namespaceSelector: {
            matchExpressions: [
              ...(system.length > 0
                ? [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [...system] }]
                : []),
              { key: OPT_OUT_LABEL, operator: 'NotIn', values: [OPT_OUT_VALUE] },
            ],
          },
          objectSelector: {
            matchExpressions: [{ key: OPT_OUT_LABEL, operator: 'NotIn', values: [OPT_OUT_VALUE] }],
          },
        },
        ...(group.target === 'runtimeclass'
          ? exclusion
            ? { matchConditions: [exclusion] }
            : {}
          : { matchConditions: [SPEC_CHANGED, ...(exclusion ? [exclusion] : [])] }),
        variables: policyVariables(group).map((v) => ({ name: v.name, expression: v.expression })),
        validations: group.rules.flatMap(({ rule, validations }) =>
          validations.map((v) => wrapValidation(rule, v.validation, v.severity)),
        ),
      },
    });
    bindings.push({
      apiVersion: ADMISSION_API_VERSION,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name, labels: { ...MANAGED_BY } },
      spec: {
        policyName: name,
        validationActions: [...validationActions(mode, group.action)],
        ...(group.cluster
          ? {
              paramRef: {
                name: options.clusterFactsName ?? DEFAULT_FACTS_NAME,
                parameterNotFoundAction: 'Allow',
              },
            }
          : {}),
      },
    });
  }
  return [...policies, ...bindings];
}
