/**
 * MutatingAdmissionPolicies for the fixes `fix` makes with certainty, opt-in (`mutating: true`):
 *
 * - `spec.os.name: windows` on a pod that selects Windows by nodeSelector or required node affinity and has no
 *   `spec.os` (windows-os-unset), unless it sets a field the API server forbids on Windows pods — with
 *   `os.name: windows` the API server would then refuse the pod, which `fix` avoids by removing the field first;
 * - `nodeSelector kubernetes.io/os: windows` on a pod with `spec.os.name: windows` that selects no OS
 *   (windows-node-selector-missing, or -affinity-only when its affinity selects Windows);
 * - with the cluster facts: a toleration for each taint every Windows pool carries that the pod does not tolerate
 *   (windows-toleration-missing), and `runtimeClassName` when every pool runs one build and the facts name exactly
 *   one process-isolated RuntimeClass for it, on a pod that pins no build and selects no pool (image-build-unpinned).
 *
 * Never on a Linux pod: every mutation needs a pod that declares or selects Windows and says Linux nowhere
 * (`mut_sure`), and none guesses from image names. A pod that names a RuntimeClass gets no selector, toleration
 * or RuntimeClass (the RuntimeClass may carry them). Suppressions and `off` settings are honoured as `fix`
 * honours them. Pods are mutated on CREATE only (their spec.os, runtimeClassName and nodeSelector cannot change
 * afterwards); workload templates on CREATE and on an UPDATE that changes the template.
 *
 * Patch types: `spec.os` and `runtimeClassName` are set with an ApplyConfiguration; `nodeSelector` is an atomic map
 * and `tolerations` an atomic list, which an ApplyConfiguration may not touch ("may not mutate atomic arrays, maps
 * or structs", k8s.io/apiserver pkg/admission/plugin/policy/mutating/patch/smd.go `validatePatch`; the
 * ApplyConfiguration docs in k8s.io/api admissionregistration/v1 types.go, v0.37.2), so they are JSON patches that
 * add one key or append to the list. `admissionregistration.k8s.io/v1` (GA in 1.36) or `v1beta1` (1.34, 1.35, behind
 * the MutatingAdmissionPolicy feature gate): the two versions have the same fields (k8s.io/api v0.37.2
 * admissionregistration/v1 and v1beta1 types.go; data/kubernetes-api/v1.35.json v1beta1 = v1.37.json v1).
 *
 * Every guard is a CEL variable (`mut_*`) in plain CEL, so the tests evaluate them with @bufbuild/cel; only the
 * mutation expressions themselves (`Object{}`, `JSONPatch{}`) need the API server (test/apiserver-cel/).
 */
import { ARCH_LABEL, BETA_OS_LABEL, OS_LABEL } from '../kube';
import { SUPPRESS_ANNOTATION_PREFIX } from '../model/types';
import { WINDOWS_RUNTIME_HANDLERS } from '../releases';
import { byRuleName, ruleNames } from '../validate/rules';
import {
  FORBIDDEN_CONTAINER_SECURITY_FIELDS,
  FORBIDDEN_POD_FIELDS,
  FORBIDDEN_POD_SECURITY_FIELDS,
  FORBIDDEN_POD_SYSCTLS,
} from '../windows-fields';
import type { CelVariable } from '../rules/cel';
import imageBuildUnpinned from '../rules/image-build-unpinned';
import windowsNodeSelectorAffinityOnly from '../rules/windows-node-selector-affinity-only';
import windowsNodeSelectorMissing from '../rules/windows-node-selector-missing';
import windowsOsUnset from '../rules/windows-os-unset';
import windowsTolerationMissing from '../rules/windows-toleration-missing';
import { CLUSTER_FACTS_API_VERSION, CLUSTER_FACTS_KIND, DEFAULT_CLUSTER_FACTS_NAME } from './cluster-facts';
import { celString, celStringList, podPrelude, POLICY_SHAPES, SHAPE_RESOURCES, type PolicyShape } from './prelude';
import type { PolicyObject, PolicyOptions } from './types';
import {
  DEFAULT_NAME_PREFIX,
  DEFAULT_SYSTEM_NAMESPACES,
  exclusionCondition,
  MANAGED_BY,
  OPT_OUT_LABEL,
  OPT_OUT_VALUE,
} from './validating';

/** The API versions a MutatingAdmissionPolicy is served in: `v1` from 1.36, `v1beta1` in 1.34–1.35 (gated). */
export type MutatingVersion = 'v1' | 'v1beta1';
export const MUTATING_VERSIONS: readonly MutatingVersion[] = ['v1', 'v1beta1'];

/** The rules whose fixes the policies make, by mutation. */
export const MUTATION_RULES = {
  os: windowsOsUnset.meta.id,
  selector: windowsNodeSelectorMissing.meta.id,
  selectorAffinity: windowsNodeSelectorAffinityOnly.meta.id,
  tolerations: windowsTolerationMissing.meta.id,
  runtimeClass: imageBuildUnpinned.meta.id,
} as const;

/** The prelude variables the guards read (checked against the prelude, so a rename fails here, not in a cluster). */
const PRELUDE_USED = [
  'spec',
  'podMeta',
  'annotations',
  'waived',
  'containers',
  'declaredOs',
  'selectedOs',
  'osTerms',
  'osAllowed',
  'affinityOs',
  'hostProcess',
] as const;

/** The pod spec's fields below the object, per shape. */
const SPEC_FIELDS: Readonly<Record<PolicyShape, readonly string[]>> = {
  pod: ['spec'],
  workload: ['spec', 'template', 'spec'],
  cronjob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/** The JSON pointer of the pod spec: `/spec/template/spec`. */
function specPointer(shape: PolicyShape): string {
  return `/${SPEC_FIELDS[shape].join('/')}`;
}

/** A JSON-pointer token (RFC 6901): `~` as `~0`, `/` as `~1` (what `jsonpatch.escapeKey` does). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * An ApplyConfiguration that sets `inner` (the fields of the pod spec, typed by `Object.<path>`) in the pod spec:
 * `Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{…}}}}`.
 */
function applyInSpec(shape: PolicyShape, inner: (specType: string) => string): string {
  const fields = SPEC_FIELDS[shape];
  const types = fields.map((_, i) => ['Object', ...fields.slice(0, i + 1)].join('.'));
  let body = inner(types[types.length - 1]);
  for (let i = fields.length - 1; i >= 0; i--) body = `${fields[i]}: ${types[i]}{${body}}`;
  return `Object{${body}}`;
}

/** Whether the object suppresses `ruleId` (any of its names), as the validating policies read suppressions. */
function suppressed(ruleId: string): string {
  const names = ruleNames(ruleId);
  return `(${[
    ...names.map((n) => `${celString(`${SUPPRESS_ANNOTATION_PREFIX}${n}`)} in variables.annotations`),
    `variables.waived.exists(w, w in ${celStringList([...names, '*'])})`,
  ].join(' || ')})`;
}

/** The pod sets a field the API server forbids once spec.os.name is windows (windows-fields.ts, validateWindows). */
function forbiddenFieldsSet(): string {
  const sc = 'variables.spec.securityContext';
  const podSc = [
    ...FORBIDDEN_POD_SECURITY_FIELDS.map((f) => `has(${sc}.${f})`),
    `(has(${sc}.${FORBIDDEN_POD_SYSCTLS}) && ${sc}.${FORBIDDEN_POD_SYSCTLS}.size() > 0)`,
  ].join(' || ');
  const podFields = Object.entries(FORBIDDEN_POD_FIELDS)
    .map(([f, when]) =>
      when === 'any' ? `has(variables.spec.${f})` : `(has(variables.spec.${f}) && variables.spec.${f})`,
    )
    .join(' || ');
  const container = FORBIDDEN_CONTAINER_SECURITY_FIELDS.map((f) => `has(c.securityContext.${f})`).join(' || ');
  return [
    `(has(${sc}) && (${podSc}))`,
    podFields,
    `variables.containers.exists(c, has(c.securityContext) && (${container}))`,
    'has(variables.spec.resources)',
  ].join(' || ');
}

/** Labels a selector may name without pinning a build or a pool (lint's generic labels, less the pins). */
const UNPINNED_LABELS = [OS_LABEL, BETA_OS_LABEL, ARCH_LABEL, 'beta.kubernetes.io/arch'];

/** `(has(t.value) ? t.value : '')`: a taint's or toleration's value, '' when absent (the scheduler's reading). */
const valueOf = (x: string) => `(has(${x}.value) ? ${x}.value : '')`;

/** Whether toleration `tol` tolerates taint `t`, as lib/core/target.ts `tolerates` (the scheduler's rules). */
function tolerates(tol: string, t: string): string {
  return `((!has(${tol}.effect) || ${tol}.effect == '' || ${tol}.effect == ${t}.effect) && (has(${tol}.operator) && ${tol}.operator == 'Exists' ? (!has(${tol}.key) || ${tol}.key == '' || ${tol}.key == ${t}.key) : (has(${tol}.key) && ${tol}.key == ${t}.key && ${valueOf(tol)} == ${valueOf(t)})))`;
}

/** Declares or selects Windows, and says Linux nowhere: the only pods a mutation touches. */
const SURE: CelVariable = {
  name: 'mut_sure',
  expression:
    "variables.declaredOs != 'linux' && (variables.selectedOs == '' || variables.selectedOs == 'windows') && variables.affinityOs != 'linux' && (variables.declaredOs == 'windows' || variables.selectedOs == 'windows' || variables.affinityOs == 'windows')",
};

/** The guards every policy declares after the prelude: plain CEL, evaluable outside the API server. */
function guardVariables(active: ReadonlySet<string>): CelVariable[] {
  const out: CelVariable[] = [SURE];
  if (active.has(MUTATION_RULES.os)) {
    out.push({
      name: 'mut_declareOs',
      expression: `variables.mut_sure && !has(variables.spec.os) && (variables.selectedOs == 'windows' || variables.affinityOs == 'windows') && !(${forbiddenFieldsSet()}) && !${suppressed(MUTATION_RULES.os)}`,
    });
  }
  const selectorRules = [MUTATION_RULES.selector, MUTATION_RULES.selectorAffinity].filter((r) => active.has(r));
  if (selectorRules.length > 0) {
    // Which rule reports the missing selector: -affinity-only when the affinity selects Windows.
    const notSuppressed = `(variables.affinityOs == 'windows' ? ${active.has(MUTATION_RULES.selectorAffinity) ? `!${suppressed(MUTATION_RULES.selectorAffinity)}` : 'false'} : ${active.has(MUTATION_RULES.selector) ? `!${suppressed(MUTATION_RULES.selector)}` : 'false'})`;
    out.push({
      name: 'mut_selectOs',
      expression: `variables.mut_sure && variables.declaredOs == 'windows' && variables.selectedOs == '' && !has(variables.spec.runtimeClassName) && ${notSuppressed}`,
    });
  }
  return out;
}

/** The guards of the `-cluster` policy, which reads the facts as `params`. */
function clusterGuardVariables(shape: PolicyShape, active: ReadonlySet<string>): CelVariable[] {
  const pools = 'params.spec.pools';
  const out: CelVariable[] = [SURE];
  if (active.has(MUTATION_RULES.tolerations)) {
    out.push(
      {
        // The taints every Windows pool carries: tolerating them lands the pod on no pool a pool's own taint keeps.
        name: 'mut_poolTaints',
        expression: `has(${pools}) && ${pools}.size() > 0 && has(${pools}[0].taints) ? ${pools}[0].taints.filter(t, ${pools}.all(p, has(p.taints) && p.taints.exists(u, u.key == t.key && u.effect == t.effect && ${valueOf('u')} == ${valueOf('t')}))) : []`,
      },
      {
        // The tolerations to add (tolerationFor: Equal with a value, Exists without), as JSON for the patch; string()
        // because the API server's CEL takes only map literals of one value type, and a param's fields may be dyn.
        name: 'mut_tolerations',
        expression: `variables.mut_sure && !has(variables.spec.runtimeClassName) && !${suppressed(MUTATION_RULES.tolerations)} ? variables.mut_poolTaints.filter(t, !(has(variables.spec.tolerations) && variables.spec.tolerations.exists(tol, ${tolerates('tol', 't')}))).map(t, has(t.value) ? {'key': string(t.key), 'operator': 'Equal', 'value': string(t.value), 'effect': string(t.effect)} : {'key': string(t.key), 'operator': 'Exists', 'effect': string(t.effect)}) : []`,
      },
    );
  }
  if (active.has(MUTATION_RULES.runtimeClass)) {
    const pinLabels = celStringList(UNPINNED_LABELS);
    out.push(
      {
        // The one build every pool runs, '' when they differ or one is unknown.
        name: 'mut_build',
        expression: `has(${pools}) && ${pools}.size() > 0 && ${pools}.all(p, has(p.build) && p.build == ${pools}[0].build) ? ${pools}[0].build : ''`,
      },
      {
        // The process-isolated RuntimeClasses the facts name for that build.
        name: 'mut_buildClasses',
        expression: `variables.mut_build != '' && has(params.spec.runtimeClasses) ? params.spec.runtimeClasses.filter(r, has(r.build) && r.build == variables.mut_build && r.handler == ${celString(WINDOWS_RUNTIME_HANDLERS.process)}).map(r, r.name) : []`,
      },
      {
        // Set on a pod that names none, is not HostProcess, pins no build and selects no pool (by selector or
        // affinity); DaemonSets follow every node and are left alone.
        name: 'mut_runtimeClass',
        expression: `variables.mut_buildClasses.size() == 1 && variables.mut_sure && !has(variables.spec.runtimeClassName) && !variables.hostProcess${shape === 'workload' ? " && request.kind.kind != 'DaemonSet'" : ''} && !(has(variables.spec.nodeSelector) && variables.spec.nodeSelector.exists(k, !(k in ${pinLabels}))) && !(has(variables.spec.affinity) && has(variables.spec.affinity.nodeAffinity) && has(variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution) && has(variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms) && variables.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms.exists(t, has(t.matchExpressions) && t.matchExpressions.exists(e, !(e.key in ${pinLabels})))) && !${suppressed(MUTATION_RULES.runtimeClass)} ? variables.mut_buildClasses[0] : ''`,
      },
    );
  }
  return out;
}

/** The mutations of the plain policy (no params). */
function mutations(shape: PolicyShape, active: ReadonlySet<string>): Record<string, unknown>[] {
  const at = specPointer(shape);
  const out: Record<string, unknown>[] = [];
  if (active.has(MUTATION_RULES.os)) {
    out.push({
      patchType: 'ApplyConfiguration',
      applyConfiguration: {
        expression: `variables.mut_declareOs ? ${applyInSpec(shape, (t) => `os: ${t}.os{name: 'windows'}`)} : Object{}`,
      },
    });
  }
  if (active.has(MUTATION_RULES.selector) || active.has(MUTATION_RULES.selectorAffinity)) {
    out.push({
      patchType: 'JSONPatch',
      jsonPatch: {
        expression: `variables.mut_selectOs ? (has(variables.spec.nodeSelector) ? [JSONPatch{op: 'add', path: ${celString(`${at}/nodeSelector/${pointerToken(OS_LABEL)}`)}, value: 'windows'}] : [JSONPatch{op: 'add', path: ${celString(`${at}/nodeSelector`)}, value: {${celString(OS_LABEL)}: 'windows'}}]) : []`,
      },
    });
  }
  return out;
}

/** The mutations of the `-cluster` policy (params: the facts). */
function clusterMutations(shape: PolicyShape, active: ReadonlySet<string>): Record<string, unknown>[] {
  const at = specPointer(shape);
  const out: Record<string, unknown>[] = [];
  if (active.has(MUTATION_RULES.tolerations)) {
    out.push({
      patchType: 'JSONPatch',
      jsonPatch: {
        expression: `variables.mut_tolerations.size() == 0 ? [] : has(variables.spec.tolerations) ? variables.mut_tolerations.map(t, JSONPatch{op: 'add', path: ${celString(`${at}/tolerations/-`)}, value: t}) : [JSONPatch{op: 'add', path: ${celString(`${at}/tolerations`)}, value: variables.mut_tolerations}]`,
      },
    });
  }
  if (active.has(MUTATION_RULES.runtimeClass)) {
    out.push({
      patchType: 'ApplyConfiguration',
      applyConfiguration: {
        expression: `variables.mut_runtimeClass != '' ? ${applyInSpec(shape, () => 'runtimeClassName: variables.mut_runtimeClass')} : Object{}`,
      },
    });
  }
  return out;
}

/** The rules whose mutations are on: every one the settings do not turn `off`. */
function activeRules(options: PolicyOptions): ReadonlySet<string> {
  const settings = options.settings ?? {};
  return new Set(
    Object.values(MUTATION_RULES).filter(
      (id) => byRuleName((name) => (Object.hasOwn(settings, name) ? settings[name] : undefined), id) !== 'off',
    ),
  );
}

/** The prelude variables the guards read, in prelude order. */
function preludeFor(shape: PolicyShape): CelVariable[] {
  const prelude = podPrelude(shape);
  const missing = PRELUDE_USED.filter((n) => !prelude.some((v) => v.name === n));
  if (missing.length > 0) throw new Error(`the policy prelude lacks ${missing.join(', ')}: update mutating.ts`);
  return prelude.filter((v) => (PRELUDE_USED as readonly string[]).includes(v.name)).map((v) => ({ ...v }));
}

/**
 * On an UPDATE of a workload or CronJob, mutate only when the update changes the pod template: a fix then rides the
 * rollout the update starts anyway, and a workload created before the policies is not rolled by an update that
 * touches nothing of its pods (a replica count, a label).
 */
function templateChanged(shape: PolicyShape): Record<string, unknown> | undefined {
  const field = shape === 'cronjob' ? 'jobTemplate' : shape === 'workload' ? 'template' : undefined;
  if (field === undefined) return undefined;
  return {
    name: 'k8s-windows-template-changed',
    expression: `request.operation != 'UPDATE' || oldObject == null || object.spec.${field} != oldObject.spec.${field}`,
  };
}

function matchConditions(
  shape: PolicyShape,
  exclusion: Record<string, unknown> | undefined,
): Record<string, unknown>[] {
  return [exclusion, templateChanged(shape)].filter((c): c is Record<string, unknown> => c !== undefined);
}

/** The name of a mutating policy (and its binding): `k8s-windows-pod-mutate`, `…-mutate-cluster`. */
export function mutatingPolicyName(prefix: string, shape: PolicyShape, cluster: boolean): string {
  return `${prefix}-${shape}-mutate${cluster ? '-cluster' : ''}`;
}

/**
 * The MutatingAdmissionPolicies and their bindings (policies first), when `options.mutating` is true; `[]`
 * otherwise. Per shape: `<prefix>-<shape>-mutate` (os, selector) and `<prefix>-<shape>-mutate-cluster`
 * (tolerations, RuntimeClass; bound to the facts object with `parameterNotFoundAction: Allow`, so it does nothing
 * until the facts exist).
 */
export function mutatingPolicies(options: PolicyOptions = {}): PolicyObject[] {
  if (options.mutating !== true) return [];
  const version = options.mutatingVersion ?? 'v1';
  if (!MUTATING_VERSIONS.includes(version)) {
    throw new Error(`mutatingVersion ${JSON.stringify(version)} is not one of ${MUTATING_VERSIONS.join(', ')}`);
  }
  const apiVersion = `admissionregistration.k8s.io/${version}`;
  const prefix = options.namePrefix ?? DEFAULT_NAME_PREFIX;
  const system = options.systemNamespaces ?? DEFAULT_SYSTEM_NAMESPACES;
  const factsName = options.clusterFactsName ?? DEFAULT_CLUSTER_FACTS_NAME;
  const exclusion = exclusionCondition(options);
  const active = activeRules(options);
  const policies: PolicyObject[] = [];
  const bindings: PolicyObject[] = [];
  for (const shape of POLICY_SHAPES) {
    for (const cluster of [false, true]) {
      const list = cluster ? clusterMutations(shape, active) : mutations(shape, active);
      if (list.length === 0) continue;
      const name = mutatingPolicyName(prefix, shape, cluster);
      const guards = cluster ? clusterGuardVariables(shape, active) : guardVariables(active);
      policies.push({
        apiVersion,
        kind: 'MutatingAdmissionPolicy',
        metadata: { name, labels: { ...MANAGED_BY } },
        spec: {
          // A CEL runtime error must never block a cluster: the policy is then skipped.
          failurePolicy: 'Ignore',
          // The os and selector mutations feed each other, and other plugins may change the pod after us.
          reinvocationPolicy: 'IfNeeded',
          ...(cluster ? { paramKind: { apiVersion: CLUSTER_FACTS_API_VERSION, kind: CLUSTER_FACTS_KIND } } : {}),
          matchConstraints: {
            resourceRules: SHAPE_RESOURCES[shape].map((r) => ({
              apiGroups: [r.apiGroup],
              apiVersions: [r.apiVersion],
              // A pod's os, runtimeClassName and nodeSelector cannot change after creation.
              operations: shape === 'pod' ? ['CREATE'] : ['CREATE', 'UPDATE'],
              resources: [...r.resources],
            })),
            namespaceSelector: {
              matchExpressions: [
                ...(system.length > 0
                  ? [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [...system] }]
                  : []),
                { key: OPT_OUT_LABEL, operator: 'NotIn', values: [OPT_OUT_VALUE] },
              ],
            },
            objectSelector: { matchExpressions: [{ key: OPT_OUT_LABEL, operator: 'NotIn', values: [OPT_OUT_VALUE] }] },
          },
          ...(matchConditions(shape, exclusion).length > 0
            ? { matchConditions: matchConditions(shape, exclusion) }
            : {}),
          variables: [...preludeFor(shape), ...guards].map((v) => ({ name: v.name, expression: v.expression })),
          mutations: list,
        },
      });
      bindings.push({
        apiVersion,
        kind: 'MutatingAdmissionPolicyBinding',
        metadata: { name, labels: { ...MANAGED_BY } },
        spec: {
          policyName: name,
          ...(cluster ? { paramRef: { name: factsName, parameterNotFoundAction: 'Allow' } } : {}),
        },
      });
    }
  }
  return [...policies, ...bindings];
}
