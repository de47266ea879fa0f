/**
 * Runs generated ValidatingAdmissionPolicies on an object the way the API server's admission plugin does, with the
 * standalone @bufbuild/cel evaluator (not our own code): matchConstraints (resourceRules by kind and operation,
 * namespaceSelector, objectSelector), matchConditions, the variables (in order, each evaluated once and only when
 * read), the validations, their messageExpression (the static message when it fails), and params from the
 * binding's paramRef. A CEL runtime error is what `failurePolicy: Ignore` makes of it: no violation, but recorded,
 * so a test can insist there are none.
 *
 * What it does not do: type-check expressions against the OpenAPI schemas, count the cost budget, or run the
 * Kubernetes CEL library's own functions (the Go helper in test/apiserver-cel/ judges those).
 */
import { celEnv, celMap, isCelError, parse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

type Json = unknown;
type Rec = Record<string, unknown>;

/** A failed validation: the rule id its message leads with, the message, the policy and binding actions. */
export interface VapViolation {
  readonly ruleId: string;
  readonly message: string;
  readonly policy: string;
  readonly actions: readonly string[];
}

/** A CEL expression that failed at run time (the API server would ignore the validation: failurePolicy Ignore). */
export interface VapError {
  readonly policy: string;
  readonly where: string;
  readonly error: string;
}

export interface VapResult {
  readonly violations: readonly VapViolation[];
  readonly errors: readonly VapError[];
  /** The policies that matched the object (their constraints, conditions and params). */
  readonly matched: readonly string[];
}

export interface VapRequest {
  /** @default 'CREATE' */
  readonly operation?: 'CREATE' | 'UPDATE';
  /** The request's namespace; @default - the object's metadata.namespace, else 'default' (namespaced kinds) */
  readonly namespace?: string;
  /** The object before an UPDATE. @default - none (null, as on CREATE) */
  readonly oldObject?: unknown;
  /** Labels of the request's namespace (`kubernetes.io/metadata.name` is added). @default {} */
  readonly namespaceLabels?: Readonly<Record<string, string>>;
  /** Objects a binding's paramRef may name (WindowsClusterFacts), by name. @default - none */
  readonly params?: readonly Rec[];
}

const ENV = celEnv({ funcs: strings });
const PLANS = new Map<string, ReturnType<typeof plan>>();

/** The plural resource of a kind, as the API server names the kinds the policies match (`runtimeclasses`). */
function resourceOf(kind: string): string {
  const lower = kind.toLowerCase();
  return lower.endsWith('s') ? `${lower}es` : `${lower}s`;
}

/** Converts JSON to CEL input: objects to maps, integers to int (bigint), other numbers to double. */
export function toCelInput(value: Json): CelInput {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(toCelInput);
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? BigInt(value) : value;
    case 'string':
    case 'boolean':
      return value;
    case 'bigint':
      return value;
    case 'object':
      // The API server decodes into typed objects: a null field is an absent one.
      return new Map(
        Object.entries(value as Rec)
          .filter(([, v]) => v !== null && v !== undefined)
          .map(([k, v]) => [k, toCelInput(v)]),
      );
    default:
      return null;
  }
}

class CelRuntimeError extends Error {}

function compiled(expression: string): ReturnType<typeof plan> {
  let p = PLANS.get(expression);
  if (!p) {
    p = plan(ENV, parse(expression));
    PLANS.set(expression, p);
  }
  return p;
}

/** Evaluates `expression`; throws CelRuntimeError on a CEL error (including one from a variable it reads). */
function evaluate(expression: string, bindings: Record<string, CelInput>): CelValue {
  let result: CelValue | Error;
  try {
    result = compiled(expression)(bindings) as CelValue | Error;
  } catch (e) {
    if (e instanceof CelRuntimeError) throw e;
    throw new CelRuntimeError(`${String(e)}`);
  }
  if (isCelError(result)) throw new CelRuntimeError(result.message);
  return result as CelValue;
}

/**
 * The `variables` binding: a map whose entries are evaluated on first read (the API server's lazy, memoised
 * variables). A variable sees only the variables declared before it, as the API server compiles them: reading a
 * later one is an error here as there. A variable that fails fails every expression that reads it.
 */
class LazyVariables {
  private readonly done = new Map<string, CelValue | CelRuntimeError>();
  private readonly order: readonly string[];
  private readonly expressions: ReadonlyMap<string, string>;

  constructor(
    variables: readonly { name: string; expression: string }[],
    private readonly base: Record<string, CelInput>,
  ) {
    this.order = variables.map((v) => v.name);
    this.expressions = new Map(variables.map((v) => [v.name, v.expression]));
  }

  /** The `variables` map an expression sees: those declared before position `upTo` (all of them by default). */
  view(upTo: number = this.order.length): ReadonlyMap<string, CelInput> {
    const visible = new Set(this.order.slice(0, upTo));
    const get = (key: string): CelInput | undefined => (visible.has(key) ? this.value(key) : undefined);
    return {
      get size() {
        return visible.size;
      },
      has: (key: string) => visible.has(key),
      get,
      keys: () => visible.keys(),
      *entries() {
        for (const k of visible) yield [k, get(k) as CelInput];
      },
      *values() {
        for (const k of visible) yield get(k) as CelInput;
      },
      forEach(cb: (value: CelInput, key: string, map: ReadonlyMap<string, CelInput>) => void) {
        for (const k of visible) cb(get(k) as CelInput, k, this);
      },
      [Symbol.iterator]() {
        return this.entries();
      },
    } as ReadonlyMap<string, CelInput>;
  }

  private value(key: string): CelInput {
    let value = this.done.get(key);
    if (value === undefined) {
      const position = this.order.indexOf(key);
      try {
        value = evaluate(this.expressions.get(key)!, { ...this.base, variables: celMap(this.view(position)) });
      } catch (e) {
        value = e instanceof CelRuntimeError ? e : new CelRuntimeError(String(e));
      }
      this.done.set(key, value);
    }
    if (value instanceof CelRuntimeError) throw new CelRuntimeError(`variables.${key}: ${value.message}`);
    return value as CelInput;
  }
}

interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] }[];
}

/** A label selector as the API server matches it. */
export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(labels[e.key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[e.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        throw new Error(`unknown selector operator ${e.operator}`);
    }
  }
  return true;
}

const CLUSTER_SCOPED = new Set(['RuntimeClass', 'Namespace', 'WindowsClusterFacts']);

function rec(v: unknown): Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : {};
}

function stringMap(v: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(rec(v)).filter(([, x]) => typeof x === 'string')) as Record<string, string>;
}

/** Whether the policy's matchConstraints select the object's request. */
function constraintsMatch(spec: Rec, object: Rec, request: Rec, namespaceLabels: Record<string, string>): boolean {
  const constraints = rec(spec.matchConstraints);
  const [group, version] = String(object.apiVersion).includes('/')
    ? String(object.apiVersion).split('/')
    : ['', String(object.apiVersion)];
  const resource = resourceOf(String(object.kind));
  const rules = (constraints.resourceRules as Rec[] | undefined) ?? [];
  const ruleMatches = rules.some((r) => {
    const any = (list: unknown, v: string) => Array.isArray(list) && (list.includes('*') || list.includes(v));
    return (
      any(r.apiGroups, group!) &&
      any(r.apiVersions, version!) &&
      any(r.operations, String(request.operation)) &&
      any(r.resources, resource)
    );
  });
  if (!ruleMatches) return false;
  if (!CLUSTER_SCOPED.has(String(object.kind))) {
    if (!selectorMatches(constraints.namespaceSelector as LabelSelector | undefined, namespaceLabels)) return false;
  }
  return selectorMatches(
    constraints.objectSelector as LabelSelector | undefined,
    stringMap(rec(object.metadata).labels),
  );
}

/**
 * Runs every policy of `objects` (ValidatingAdmissionPolicies and their bindings, as generated) on `object`, as
 * the API server would on its CREATE (or UPDATE).
 */
export function evaluatePolicies(objects: readonly unknown[], object: unknown, request: VapRequest = {}): VapResult {
  const obj = rec(object);
  const meta = rec(obj.metadata);
  const namespaced = !CLUSTER_SCOPED.has(String(obj.kind));
  const namespace =
    request.namespace ?? (namespaced ? (typeof meta.namespace === 'string' ? meta.namespace : 'default') : '');
  const namespaceLabels = { ...(request.namespaceLabels ?? {}), 'kubernetes.io/metadata.name': namespace };
  const [group, version] = String(obj.apiVersion).includes('/')
    ? String(obj.apiVersion).split('/')
    : ['', String(obj.apiVersion)];
  const requestValue: Rec = {
    kind: { group, version, kind: String(obj.kind) },
    resource: { group, version, resource: resourceOf(String(obj.kind)) },
    name: typeof meta.name === 'string' ? meta.name : '',
    namespace,
    operation: request.operation ?? 'CREATE',
  };
  const policies = objects.map(rec).filter((o) => o.kind === 'ValidatingAdmissionPolicy');
  const bindings = objects.map(rec).filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding');
  const violations: VapViolation[] = [];
  const errors: VapError[] = [];
  const matched: string[] = [];
  const objectInput = toCelInput(obj);
  const requestInput = toCelInput(requestValue);

  for (const policy of policies) {
    const name = String(rec(policy.metadata).name);
    const spec = rec(policy.spec);
    for (const binding of bindings.filter((b) => rec(b.spec).policyName === name)) {
      const bspec = rec(binding.spec);
      if (!constraintsMatch(spec, obj, requestValue, namespaceLabels)) continue;
      let params: CelInput = null;
      if (bspec.paramRef !== undefined) {
        const ref = rec(bspec.paramRef);
        const found = (request.params ?? []).find((p) => rec(p.metadata).name === ref.name);
        if (!found) {
          if (ref.parameterNotFoundAction === 'Deny') {
            violations.push({ ruleId: '', message: `params ${String(ref.name)} not found`, policy: name, actions: [] });
          }
          continue;
        }
        params = toCelInput(found);
      }
      const bindingsBase: Record<string, CelInput> = {
        object: objectInput,
        oldObject: request.oldObject === undefined ? null : toCelInput(request.oldObject),
        request: requestInput,
        params,
      };
      const variables = new LazyVariables(
        ((spec.variables as { name: string; expression: string }[] | undefined) ?? []).map((v) => ({
          name: v.name,
          expression: v.expression,
        })),
        bindingsBase,
      );
      const all: Record<string, CelInput> = { ...bindingsBase, variables: celMap(variables.view()) };
      const conditions = (spec.matchConditions as { name: string; expression: string }[] | undefined) ?? [];
      let conditionsMet = true;
      for (const c of conditions) {
        try {
          // matchConditions cannot read the variables.
          if (evaluate(c.expression, bindingsBase) !== true) conditionsMet = false;
        } catch (e) {
          errors.push({ policy: name, where: `matchConditions ${c.name}`, error: String((e as Error).message) });
          conditionsMet = false;
        }
      }
      if (!conditionsMet) continue;
      matched.push(name);
      const actions = (bspec.validationActions as string[] | undefined) ?? [];
      for (const v of (spec.validations as Rec[] | undefined) ?? []) {
        let ok: CelValue;
        try {
          ok = evaluate(String(v.expression), all);
        } catch (e) {
          errors.push({ policy: name, where: String(v.expression).slice(0, 200), error: (e as Error).message });
          continue;
        }
        if (ok === true) continue;
        if (ok !== false) {
          errors.push({ policy: name, where: String(v.expression).slice(0, 200), error: `not a bool: ${String(ok)}` });
          continue;
        }
        let message = typeof v.message === 'string' ? v.message : '';
        if (typeof v.messageExpression === 'string') {
          try {
            const m = evaluate(v.messageExpression, all);
            if (typeof m === 'string' && m.trim() !== '') message = m;
            else errors.push({ policy: name, where: v.messageExpression, error: `not a message: ${String(m)}` });
          } catch (e) {
            errors.push({ policy: name, where: v.messageExpression, error: (e as Error).message });
          }
        }
        const ruleId = /^([a-z0-9-]+): /.exec(message)?.[1] ?? '';
        violations.push({ ruleId, message, policy: name, actions });
      }
    }
  }
  return { violations, errors, matched };
}
