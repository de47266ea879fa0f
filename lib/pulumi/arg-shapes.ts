/**
 * The JavaScript shape of every component input, checked before any other check or any use: a program written in
 * JavaScript, or one that reads its args from config, can pass `null`, a number for a string or a string for an
 * object, and each of those must end in one `pulumi.InputPropertiesError` naming the property — never a TypeError
 * from deep inside, never a provider's plain "Missing required property". The component's own checks (names,
 * releases, sizes) then run on the inputs whose shape is right.
 *
 * A shape says whether an input may be eventual (an Output or a Promise, `pulumi.Input<T>`): such inputs are
 * checked once known with `checkResolved` where the component reads them, or passed through to a provider.
 */
import * as pulumi from '@pulumi/pulumi';
import type { ValidationIssue } from '../core/errors';
import { isRecord } from '../core/json';
import { WINDOWS_RELEASES } from '../core/releases';
import { isEventual, throwInputErrors } from './errors';

/** What a value must look like. */
export interface Shape {
  /** For messages: "a string", "a list of strings". */
  readonly expects: string;
  /** The issues of a value known now (never an Output). */
  readonly check: (value: unknown, path: string) => ValidationIssue[];
  /** Whether an Output or a Promise is accepted in its place (and at any depth the shape allows). */
  readonly eventual: boolean;
}

/** One arg of a component: its shape and whether it must be given. */
export interface ArgShape {
  readonly shape: Shape;
  /** @default false */
  readonly required?: boolean;
  /** What to write, for the fix. @default - "a value of that shape" */
  readonly example?: string;
}

export type ArgShapes = Readonly<Record<string, ArgShape>>;

/** A value as messages quote it: short, and never the value of a secret (an Output is never quoted). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (isEventual(value)) return 'an Output';
  if (Array.isArray(value)) return `a list (${clip(safeJson(value))})`;
  if (typeof value === 'object') {
    return pulumi.Resource.isInstance(value) ? 'a resource' : `an object (${clip(safeJson(value))})`;
  }
  if (typeof value === 'string') return clip(JSON.stringify(value));
  return `${typeof value} ${String(value)}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (isEventual(v) ? '<Output>' : v)) ?? String(value);
  } catch {
    return '…';
  }
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function wrong(path: string, value: unknown, expects: string, example?: string): ValidationIssue {
  return {
    path,
    message: `${path} must be ${expects}, got ${describeValue(value)}.`,
    fix: example !== undefined ? `Write e.g. ${example}.` : `Give ${expects}, or leave it out.`,
  };
}

function shape(expects: string, eventual: boolean, test: (value: unknown, path: string) => ValidationIssue[]): Shape {
  return {
    expects,
    eventual,
    check: (value, path) => {
      if (isEventual(value)) {
        return eventual
          ? []
          : [
              {
                path,
                message: `${path} is an Output or a Promise, but it is checked before anything is created, so it must be a plain value.`,
                fix: 'Pass the value itself (e.g. config.require(...), a literal), not a resource output.',
              },
            ];
      }
      return test(value, path);
    },
  };
}

/** Options every shape takes. */
export interface ShapeOptions {
  /**
   * Whether an Output or a Promise is accepted (the input is a `pulumi.Input<T>`).
   * @default false
   */
  readonly eventual?: boolean;
}

/** A string; `nonEmpty` for names that must be given (a cluster name). */
export function str(options: ShapeOptions & { readonly nonEmpty?: boolean } = {}): Shape {
  const expects = options.nonEmpty ? 'a non-empty string' : 'a string';
  return shape(expects, options.eventual ?? false, (v, p) => {
    if (typeof v !== 'string') return [wrong(p, v, expects)];
    if (options.nonEmpty && v.trim() === '') return [{ path: p, message: `${p} is empty.`, fix: `Give ${p}.` }];
    return [];
  });
}

/** One of a few strings. */
export function oneOf(values: readonly string[], options: ShapeOptions = {}): Shape {
  const expects = `one of ${values.map((v) => `'${v}'`).join(', ')}`;
  return shape(expects, options.eventual ?? false, (v, p) =>
    typeof v === 'string' && values.includes(v) ? [] : [wrong(p, v, expects)],
  );
}

/** `true` or `false`. */
export function bool(options: ShapeOptions = {}): Shape {
  return shape('true or false', options.eventual ?? false, (v, p) =>
    typeof v === 'boolean' ? [] : [wrong(p, v, 'true or false')],
  );
}

/** A finite number (ranges are the component's own check). */
export function num(options: ShapeOptions = {}): Shape {
  return shape('a number', options.eventual ?? false, (v, p) =>
    typeof v === 'number' && Number.isFinite(v) ? [] : [wrong(p, v, 'a number')],
  );
}

/** A list whose items have `item`'s shape. */
export function list(item: Shape, options: ShapeOptions = {}): Shape {
  const expects = `a list of ${plural(item.expects)}`;
  return shape(expects, options.eventual ?? false, (v, p) => {
    if (!Array.isArray(v)) return [wrong(p, v, expects)];
    return v.flatMap((x: unknown, i) => item.check(x, `${p}[${i}]`));
  });
}

/** A map from string keys to values of `value`'s shape (labels, tags). */
export function record(value: Shape, options: ShapeOptions = {}): Shape {
  const expects = `a map of ${plural(value.expects)}`;
  return shape(expects, options.eventual ?? false, (v, p) => {
    if (!isRecord(v) || pulumi.Resource.isInstance(v)) return [wrong(p, v, expects)];
    return Object.entries(v).flatMap(([k, x]) => value.check(x, `${p}["${k}"]`));
  });
}

/**
 * An object with known fields (other fields are left to the component or the provider). A resource with those
 * fields passes (an `aws.iam.Role` as `{ name, arn }`).
 */
export function object(fields: ArgShapes, options: ShapeOptions & { readonly expects?: string } = {}): Shape {
  const expects = options.expects ?? 'an object';
  return shape(expects, options.eventual ?? false, (v, p) => {
    if (!isRecord(v)) return [wrong(p, v, expects)];
    return checkShapes(v, fields, `${p}.`);
  });
}

/** A Pulumi resource (a provider, a node group to depend on). */
export function resource(expects = 'a Pulumi resource'): Shape {
  return shape(expects, false, (v, p) => (pulumi.Resource.isInstance(v) ? [] : [wrong(p, v, expects)]));
}

/** Either of two shapes: a string literal or an object (`awsAuth: 'external' | {...}`). */
export function either(a: Shape, b: Shape): Shape {
  const expects = `${a.expects} or ${b.expects}`;
  return shape(expects, a.eventual || b.eventual, (v, p) => {
    const first = a.check(v, p);
    if (first.length === 0) return [];
    const second = b.check(v, p);
    if (second.length === 0) return [];
    // Report the shape the value was trying to be: the one whose issues are deeper than the value itself.
    const deeper = [first, second].find((issues) => issues.some((i) => i.path !== p));
    return deeper ?? [wrong(p, v, expects)];
  });
}

/** A literal value (`'external'`). */
export function literal(value: string): Shape {
  return shape(`'${value}'`, false, (v, p) => (v === value ? [] : [wrong(p, v, `'${value}'`)]));
}

function plural(expects: string): string {
  return expects
    .replace(/^an? /, '')
    .replace(/^(string|number|object|list|map|resource)\b/, '$1s')
    .replace(/^true or false$/, 'booleans');
}

/**
 * The issues of `args` against `shapes`: a required arg missing, null or of the wrong shape, an optional arg that
 * is null or of the wrong shape. `prefix` is prepended to paths (for nested objects).
 */
export function checkShapes(given: object, shapes: ArgShapes, prefix = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const args = given as Readonly<Record<string, unknown>>;
  for (const [key, spec] of Object.entries(shapes)) {
    const path = `${prefix}${key}`;
    const value = args[key];
    if (value === undefined) {
      if (spec.required) {
        issues.push({
          path,
          message: `${path} is required.`,
          fix: spec.example !== undefined ? `Write e.g. ${spec.example}.` : `Give ${spec.shape.expects}.`,
        });
      }
      continue;
    }
    if (value === null) {
      issues.push({
        path,
        message: `${path} is null.`,
        fix: spec.required
          ? `Give ${spec.shape.expects}${spec.example !== undefined ? `, e.g. ${spec.example}` : ''}.`
          : `Leave ${path} out to take its default, or give ${spec.shape.expects}.`,
      });
      continue;
    }
    const found = spec.shape.check(value, path);
    if (found.length > 0 && spec.example !== undefined && found.every((i) => i.path === path)) {
      issues.push(...found.map((i) => ({ ...i, fix: `Write e.g. ${spec.example}.` })));
    } else {
      issues.push(...found);
    }
  }
  return issues;
}

/**
 * Checks the shapes of a component's args. Returns every issue and a copy of the args without the values that are
 * wrong (a wrong field of an object is removed from a copy of that object; a wrong list item removes the whole
 * arg), so the component's other checks only see values of the right shape; their issues about those values are
 * dropped with `mergeShapeIssues`.
 */
export function shapedArgs<T extends object>(
  args: T,
  shapes: ArgShapes,
): { args: T; issues: ValidationIssue[]; bad: readonly string[] } {
  const issues = checkShapes(args, shapes);
  let clean: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const issue of issues) clean = without(clean, stepsOf(issue.path));
  return { args: clean as T, issues, bad: issues.map((i) => i.path) };
}

/** `a.b["c"][0]` → `['a', 'b', 'c', 0]`. */
function stepsOf(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  const re = /([^.[\]]+)|\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]/g;
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    steps.push(m[1] ?? (m[2] !== undefined ? m[2] : Number(m[3])));
  }
  return steps;
}

/** A copy of `obj` without the value at `steps` (copying only the objects on the way). */
function without(obj: Record<string, unknown>, steps: readonly (string | number)[]): Record<string, unknown> {
  const [head, ...rest] = steps;
  if (typeof head !== 'string' || !(head in obj)) return obj;
  const copy = { ...obj };
  const child = obj[head];
  if (rest.length === 0 || typeof rest[0] !== 'string' || !isRecord(child) || pulumi.Resource.isInstance(child)) {
    delete copy[head]; // the value itself, or a list holding it: the arg goes
    return copy;
  }
  copy[head] = without(child, rest);
  return copy;
}

function within(path: string, container: string): boolean {
  return path === container || path.startsWith(`${container}.`) || path.startsWith(`${container}[`);
}

/**
 * The issues of shape checks followed by those of the component's other checks, without the latter where they are
 * about a value whose shape was wrong, or about what holds it (a missing `clusterName` reported as "null" by the
 * shape and "required" by the component).
 */
export function mergeShapeIssues(
  shapeIssues: readonly ValidationIssue[],
  bad: readonly string[],
  others: readonly ValidationIssue[],
): ValidationIssue[] {
  const related = (p: string): boolean => bad.some((b) => within(p, b) || within(b, p));
  return [...shapeIssues, ...others.filter((i) => !related(i.path))];
}

/**
 * Checks an eventual input once known, inside `apply`: throws one `InputPropertiesError` (the deployment fails
 * with it) when its value has the wrong shape. `undefined` passes unless `required`.
 */
export function checkResolved<T>(subject: string, spec: ArgShape, value: unknown, path: string): T {
  throwInputErrors(subject, checkShapes({ [path]: value }, { [path]: spec }));
  return value as T;
}

/** Args every cloud's Windows pool takes, in the same words. */
export const NODE_POOL_SHAPES: ArgShapes = {
  release: { shape: str(), example: "'2022'" },
  kubernetesVersion: { shape: str({ eventual: true }), example: "'1.32'" },
  labels: { shape: record(str()), example: "{ 'example.com/pool': 'win' }" },
  taints: {
    shape: list(object({ key: { shape: str() }, value: { shape: str() }, effect: { shape: str() } })),
    example: "[{ key: 'os', value: 'windows', effect: 'NoSchedule' }]",
  },
  scaling: {
    shape: object({ minSize: { shape: num() }, maxSize: { shape: num() }, desiredSize: { shape: num() } }),
    example: '{ minSize: 1, maxSize: 3 }',
  },
  date: { shape: str(), example: "'2026-11-27'" },
};

/** A `WindowsNodeTarget` (a pool's `nodeTarget`), or one Output of it. */
export const NODE_TARGET_SHAPE: Shape = object(
  {
    release: { shape: oneOf(WINDOWS_RELEASES) },
    isolation: { shape: oneOf(['process', 'hyperv']), required: true },
    labels: { shape: record(str()), required: true },
    taints: {
      shape: list(object({ key: { shape: str(), required: true }, value: { shape: str() }, effect: { shape: str() } })),
      required: true,
    },
    runtimeClassName: { shape: str() },
  },
  { eventual: true, expects: "a node target (a pool's nodeTarget or windowsNodeTarget(...))" },
);
