/**
 * Reading resource properties as CrossGuard hands them over. During `pulumi preview` some values are unknown, and
 * the policy SDK's proxy throws an `UnknownValueError` on reading one; these helpers copy the props into plain data
 * and remember where the unknowns were, so a check can skip what it cannot judge yet instead of failing whole.
 */

type Json = Record<string, unknown>;

/** Stands in for an unknown value in copies made for the cloud checks (which skip any object-valued field). */
export const UNKNOWN_VALUE: Readonly<Json> = Object.freeze({ unknown: true });

/** What to put where a value is unknown: leave it out, or the `UNKNOWN_VALUE` placeholder. */
export type UnknownMode = 'omit' | 'placeholder';

export interface ReadProps {
  /** A plain deep copy of the props. */
  readonly value: Json;
  /** Paths of the unknown values, in API-server notation (`spec.template.spec.nodeSelector`). */
  readonly unknownPaths: readonly string[];
}

/** The policy SDK's `UnknownValueError`, recognised by shape so this module needs no runtime import of it. */
function isUnknownValueError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'unknownTypeSentinel' in e;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const segment = IDENTIFIER.test(key) ? key : `["${key}"]`;
  if (parent === '') return segment;
  return segment.startsWith('[') ? `${parent}${segment}` : `${parent}.${segment}`;
}

/** Copies `props` into plain data, with unknown values left out or replaced by `UNKNOWN_VALUE`. Never throws on unknowns. */
export function readProps(props: unknown, mode: UnknownMode): ReadProps {
  const unknownPaths: string[] = [];
  const copy = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const v = read(value, i, childPath(path, i));
        if (v !== OMIT) out.push(v);
      }
      return out;
    }
    if (typeof value === 'object' && value !== null) {
      const out: Json = {};
      for (const key of Object.keys(value)) {
        const v = read(value as Json, key, childPath(path, key));
        if (v !== OMIT) out[key] = v;
      }
      return out;
    }
    return value;
  };
  const read = (container: Json | unknown[], key: string | number, path: string): unknown => {
    let raw: unknown;
    try {
      raw = (container as Record<string | number, unknown>)[key];
    } catch (e) {
      if (!isUnknownValueError(e)) throw e;
      unknownPaths.push(path);
      return mode === 'omit' ? OMIT : UNKNOWN_VALUE;
    }
    return copy(raw, path);
  };
  const value = copy(props, '');
  return {
    value: typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {},
    unknownPaths,
  };
}

const OMIT = Symbol('omit');

/** Whether a finding at `path` touches an unknown value (at, above or below it), so it cannot be judged yet. */
export function touchesUnknown(path: string, unknownPaths: readonly string[]): boolean {
  const within = (inner: string, outer: string): boolean =>
    outer === '' || inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return unknownPaths.some((u) => within(path, u) || within(u, path));
}
