/**
 * Guards for reading untrusted manifests. `validateManifests` must never throw on arbitrary JSON, so every read
 * of a manifest goes through these instead of a type assertion.
 */

import { isRecord } from '../json';

export type Rec = Record<string, unknown>;

export { isRecord } from '../json';

/** The record at `key`, or undefined when absent or not an object. */
export function rec(obj: unknown, key: string): Rec | undefined {
  if (!isRecord(obj)) return undefined;
  const v = obj[key];
  return isRecord(v) ? v : undefined;
}

/** The array at `key`, or an empty array when absent or not an array. */
export function arr(obj: unknown, key: string): readonly unknown[] {
  if (!isRecord(obj)) return [];
  const v = obj[key];
  return Array.isArray(v) ? v : [];
}

/** The string at `key`, or undefined when absent or not a string. */
export function str(obj: unknown, key: string): string | undefined {
  if (!isRecord(obj)) return undefined;
  const v = obj[key];
  return typeof v === 'string' ? v : undefined;
}

/** Whether `key` is present with a value other than undefined/null (the API server's "set" for pointer fields). */
export function has(obj: unknown, key: string): boolean {
  return isRecord(obj) && Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined && obj[key] !== null;
}

/** Own property read that never walks the prototype (`constructor`, `__proto__` in a manifest are plain keys). */
export function own(obj: unknown, key: string): unknown {
  return isRecord(obj) && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** A string-to-string map (labels, nodeSelector), dropping entries whose value is not a string. */
export function stringMap(obj: unknown, key: string): Readonly<Record<string, string>> {
  const m = rec(obj, key);
  if (!m) return EMPTY_MAP;
  const out: Record<string, string> = {};
  let any = false;
  for (const k of Object.keys(m)) {
    const v = m[k];
    if (typeof v === 'string') {
      out[k] = v;
      any = true;
    }
  }
  return any ? out : EMPTY_MAP;
}

const EMPTY_MAP: Readonly<Record<string, string>> = Object.freeze({});

/** A value for a message: strings quoted, everything else as JSON (bounded, so a huge value stays readable). */
export function show(v: unknown): string {
  let text: string;
  try {
    text = typeof v === 'string' ? `'${v}'` : (JSON.stringify(v) ?? String(v));
  } catch {
    text = String(v);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** `a.b` joined, skipping empty parts. */
export function join(base: string, ...parts: string[]): string {
  let out = base;
  for (const p of parts) out = out === '' ? p : p.startsWith('[') ? `${out}${p}` : `${out}.${p}`;
  return out;
}

/** A map key in API-server path notation: `metadata.labels[kubernetes.io/os]`. */
export function key(k: string): string {
  return `[${k}]`;
}

/** Length in bytes, as Go's `len(string)` counts it. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * A value left unrendered by a template tool (`${CREDSPEC}` for envsubst, `{{ .Values.x }}`, `<your-name>`):
 * public samples ship such placeholders, and their format is the user's to fill in, not a finding.
 */
export function isPlaceholder(v: unknown): boolean {
  return typeof v === 'string' && PLACEHOLDER.test(v.trim());
}

/**
 * The forms of a placeholder ({@link isPlaceholder}), for the rules' CEL forms.
 * @internal
 */
export const PLACEHOLDER = /\$\{[^}]*\}|\{\{.*\}\}|^<[^<>]+>$/;

/** The required fields of a Kubernetes object a document lacks; undefined when it is not even a mapping. */
export function missingObjectFields(doc: unknown): readonly string[] | undefined {
  if (!isRecord(doc)) return undefined;
  return ['apiVersion', 'kind'].filter((k) => typeof doc[k] !== 'string' || doc[k] === '');
}
