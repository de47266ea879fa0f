/**
 * Runs generated MutatingAdmissionPolicies on an object with the standalone @bufbuild/cel evaluator, as far as it
 * can: matchConstraints (kind, operation, namespace and object selectors), matchConditions, the variables, and the
 * mutations themselves. @bufbuild/cel cannot construct the API server's `Object{…}` and `JSONPatch{…}` types, so
 * the mutation expressions are read with those initialisers as plain maps (`Object.spec{os: …}` → `{'os': …}`):
 * an ApplyConfiguration is then merged into the object (maps merged field by field: the policies never give one
 * an atomic list or map), and a JSON patch applied (`add` only: the only op the policies write). Reinvocation is
 * run to a fixed point (at most 3 rounds), as `reinvocationPolicy: IfNeeded` lets the API server do.
 *
 * What it does not do: type-check expressions, check the Object type names against the schema, or run the server's
 * structured-merge-diff; the Go helper (test/apiserver-cel/) runs the same fixture (test/fixtures/policies/
 * mutations.yaml) through the API server's own code.
 */
import { celEnv, isCelError, isCelList, isCelMap, parse, plan, type CelInput, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { selectorMatches, toCelInput } from './vap-eval';

type Rec = Record<string, unknown>;

const ENV = celEnv({ funcs: strings });

export interface MapRequest {
  /** @default 'CREATE' */
  readonly operation?: 'CREATE' | 'UPDATE';
  /** @default - metadata.namespace, else 'default' */
  readonly namespace?: string;
  /** @default {} */
  readonly namespaceLabels?: Readonly<Record<string, string>>;
  /** Parameter objects by name (WindowsClusterFacts). @default - none */
  readonly params?: readonly Rec[];
  /** The stored object of an UPDATE. @default - none */
  readonly oldObject?: Rec;
}

export interface MapResult {
  readonly object: Rec;
  /** The policies whose mutations changed the object. */
  readonly changedBy: readonly string[];
  /** CEL runtime errors (failurePolicy Ignore skips the policy): a test insists there are none. */
  readonly errors: readonly string[];
}

/** Converts a CEL value to JSON (ints to numbers). */
export function fromCel(v: CelValue | unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (isCelList(v)) return [...v].map(fromCel);
  if (isCelMap(v)) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), fromCel(x)]));
  return v;
}

/** `Object.a.b{x: 1}` and `JSONPatch{op: 'add'}` as map literals `{'x': 1}`, for an evaluator without those types. */
export function asMapLiterals(expression: string): string {
  let out = '';
  let i = 0;
  const depth: boolean[] = []; // per open brace: whether it is an initialiser (its keys get quoted)
  while (i < expression.length) {
    const ch = expression[i];
    if (ch === "'" || ch === '"') {
      const end = expression.indexOf(ch, i + 1);
      out += expression.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    const init = /^(?:Object(?:\.[A-Za-z0-9_]+)*|JSONPatch)\{/.exec(expression.slice(i));
    if (init && !/[A-Za-z0-9_.]$/.test(out)) {
      out += '{';
      depth.push(true);
      i += init[0].length;
      out += quoteKey(expression, i, depth);
      i = skipKey(expression, i);
      continue;
    }
    if (ch === '{') depth.push(false);
    if (ch === '}') depth.pop();
    out += ch;
    i++;
    if (ch === ',' && depth[depth.length - 1] === true) {
      out += quoteKey(expression, i, depth);
      i = skipKey(expression, i);
    }
  }
  return out;
}

const KEY = /^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*):/;

function quoteKey(expression: string, i: number, _depth: boolean[]): string {
  const m = KEY.exec(expression.slice(i));
  return m ? `${m[1]}'${m[2]}'${m[3]}:` : '';
}

function skipKey(expression: string, i: number): number {
  const m = KEY.exec(expression.slice(i));
  return m ? i + m[0].length : i;
}

function evaluate(expression: string, bindings: Record<string, CelInput>): unknown {
  const result = plan(ENV, parse(asMapLiterals(expression)))(bindings) as CelValue;
  if (isCelError(result)) throw new Error(result.message);
  return result;
}

/** The variables, in order, each in the scope of the ones before; an erroring variable fails only its readers. */
function variablesOf(
  variables: readonly { name: string; expression: string }[],
  base: Record<string, CelInput>,
  errors: string[],
  policy: string,
): Map<string, CelInput> {
  const done = new Map<string, CelInput>();
  for (const v of variables) {
    try {
      done.set(v.name, evaluate(v.expression, { ...base, variables: done }) as CelInput);
    } catch (e) {
      errors.push(`${policy}: variables.${v.name}: ${String(e)}`);
    }
  }
  return done;
}

/** Merges an apply configuration into `target` (maps field by field, anything else replaced). */
function merge(target: Rec, patch: Rec): Rec {
  const out: Rec = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k];
    out[k] =
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      typeof cur === 'object' &&
      cur !== null &&
      !Array.isArray(cur)
        ? merge(cur as Rec, v as Rec)
        : v;
  }
  return out;
}

/** Applies JSON-patch `add` operations (RFC 6902) to a copy of `obj`. */
function applyPatch(obj: Rec, ops: readonly Rec[]): Rec {
  const copy = structuredClone(obj);
  for (const op of ops) {
    if (op.op !== 'add') throw new Error(`unsupported JSON patch op ${String(op.op)}`);
    const tokens = String(op.path)
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = tokens.pop()!;
    let parent: unknown = copy;
    for (const t of tokens) {
      parent = (parent as Rec)[t];
      if (typeof parent !== 'object' || parent === null)
        throw new Error(`JSON patch path ${String(op.path)} does not exist`);
    }
    if (Array.isArray(parent)) {
      if (last === '-') parent.push(structuredClone(op.value));
      else parent.splice(Number(last), 0, structuredClone(op.value));
    } else (parent as Rec)[last] = structuredClone(op.value);
  }
  return copy;
}

function kindsOf(rules: readonly Rec[]): { kinds: Set<string>; operations: Set<string> } {
  const kinds = new Set<string>();
  const operations = new Set<string>();
  for (const r of rules) {
    for (const res of r.resources as string[]) kinds.add(res);
    for (const o of r.operations as string[]) operations.add(o);
  }
  return { kinds, operations };
}

/** The plural resource of a kind (every kind the policies match ends in a consonant other than s). */
const resourceOf = (kind: string) => `${kind.toLowerCase()}s`;

/** One round: every matching policy's mutations, in order, each seeing the object as the one before left it. */
function round(
  objects: readonly Rec[],
  object: Rec,
  request: MapRequest,
  errors: string[],
): { object: Rec; changedBy: string[] } {
  let current = object;
  const changedBy: string[] = [];
  const policies = objects.filter((o) => o.kind === 'MutatingAdmissionPolicy');
  const bindings = objects.filter((o) => o.kind === 'MutatingAdmissionPolicyBinding');
  const meta = (current.metadata ?? {}) as Rec;
  const namespace = request.namespace ?? (typeof meta.namespace === 'string' ? meta.namespace : 'default');
  const nsLabels = { ...request.namespaceLabels, 'kubernetes.io/metadata.name': namespace };
  for (const policy of policies) {
    const name = (policy.metadata as Rec).name as string;
    const spec = policy.spec as Rec;
    const constraints = spec.matchConstraints as Rec;
    const { kinds, operations } = kindsOf(constraints.resourceRules as Rec[]);
    if (!kinds.has(resourceOf(String(current.kind))) || !operations.has(request.operation ?? 'CREATE')) continue;
    if (!selectorMatches(constraints.namespaceSelector as never, nsLabels)) continue;
    const labels = ((current.metadata as Rec | undefined)?.labels ?? {}) as Record<string, string>;
    if (!selectorMatches(constraints.objectSelector as never, labels)) continue;
    for (const binding of bindings.filter((b) => (b.spec as Rec).policyName === name)) {
      const paramRef = (binding.spec as Rec).paramRef as Rec | undefined;
      let params: Rec | null = null;
      if (spec.paramKind !== undefined && paramRef !== undefined) {
        const found = (request.params ?? []).find((p) => (p.metadata as Rec).name === paramRef.name);
        if (!found) continue; // parameterNotFoundAction: Allow
        params = found;
      }
      const base = (): Record<string, CelInput> => ({
        object: toCelInput(current),
        oldObject: toCelInput(request.oldObject ?? null),
        params: toCelInput(params),
        request: toCelInput({ namespace, operation: request.operation ?? 'CREATE', kind: { kind: current.kind } }),
      });
      const conditions = (spec.matchConditions as Rec[] | undefined) ?? [];
      if (conditions.some((c) => evaluate(String(c.expression), base()) !== true)) continue;
      for (const mutation of spec.mutations as Rec[]) {
        const vars = variablesOf(spec.variables as { name: string; expression: string }[], base(), errors, name);
        const b = { ...base(), variables: vars };
        try {
          const before = JSON.stringify(current);
          if (mutation.patchType === 'ApplyConfiguration') {
            const patch = fromCel(evaluate(String((mutation.applyConfiguration as Rec).expression), b)) as Rec;
            current = merge(current, patch);
          } else {
            const ops = fromCel(evaluate(String((mutation.jsonPatch as Rec).expression), b)) as Rec[];
            current = applyPatch(current, ops);
          }
          if (JSON.stringify(current) !== before && !changedBy.includes(name)) changedBy.push(name);
        } catch (e) {
          errors.push(`${name}: ${String(e)}`);
        }
      }
    }
  }
  return { object: current, changedBy };
}

/** Runs the policies on `object` until a round changes nothing (at most 3 rounds). */
export function evaluateMutations(objects: readonly unknown[], object: unknown, request: MapRequest = {}): MapResult {
  const errors: string[] = [];
  const changedBy = new Set<string>();
  let current = structuredClone(object) as Rec;
  for (let i = 0; i < 3; i++) {
    const r = round(objects as Rec[], current, request, errors);
    r.changedBy.forEach((n) => changedBy.add(n));
    if (JSON.stringify(r.object) === JSON.stringify(current)) break;
    current = r.object;
  }
  return { object: current, changedBy: [...changedBy], errors };
}

/** The `mut_*` and prelude variables of one policy on an object, as JSON, for tests of the guards. */
export function policyVariables(policy: unknown, object: unknown, params?: unknown): Record<string, unknown> {
  const errors: string[] = [];
  const spec = (policy as Rec).spec as Rec;
  const vars = variablesOf(
    spec.variables as { name: string; expression: string }[],
    { object: toCelInput(object), oldObject: null, params: toCelInput(params ?? null) },
    errors,
    'policy',
  );
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return Object.fromEntries([...vars.entries()].map(([k, v]) => [k, fromCel(v)]));
}
