/**
 * The top-level keys of a Kubernetes object written in another case (`Kind:`, `apiversion:`, `Metadata:`): kubectl
 * reads keys case-sensitively, so it refuses such a document, but what was meant is certain. The engine reports each
 * one (input-invalid-document) and judges the object as if it were spelled right, so its other problems show too.
 */
import { isRecord, type Rec } from './util';

/** The keys of an object whose case is checked: every object has them, and nothing else is named like them. */
export const OBJECT_KEYS = ['apiVersion', 'kind', 'metadata', 'spec'] as const;
export type ObjectKey = (typeof OBJECT_KEYS)[number];

const BY_LOWER: ReadonlyMap<string, ObjectKey> = new Map(OBJECT_KEYS.map((k) => [k.toLowerCase(), k]));

/** A key written in another case than the object key it means, read as that key. */
export interface MiscasedKey {
  /** As written: `Kind`. */
  readonly written: string;
  /** As meant: `kind`. */
  readonly meant: ObjectKey;
}

/** The object key `key` is written for in another case (`Kind` → `kind`); undefined for any other key. */
function meantKey(key: string): ObjectKey | undefined {
  // Lengths of apiVersion, kind, metadata, spec: most keys are passed over without lower-casing them.
  if (key.length !== 4 && key.length !== 8 && key.length !== 10) return undefined;
  const meant = BY_LOWER.get(key.toLowerCase());
  return meant === key ? undefined : meant;
}

/**
 * The keys of `doc` written in another case than an object key (`Kind` for `kind`) whose right spelling is absent:
 * with both `kind` and `Kind`, kubectl reads `kind` and `Kind` is an unknown field like any other. The first of
 * two spellings of one key (`Kind` and `KIND`) is the one read.
 */
export function miscasedKeys(doc: unknown): readonly MiscasedKey[] {
  if (!isRecord(doc)) return NONE;
  let out: MiscasedKey[] | undefined;
  for (const written in doc) {
    if (!Object.hasOwn(doc, written)) continue;
    const meant = meantKey(written);
    if (meant === undefined || Object.hasOwn(doc, meant) || out?.some((m) => m.meant === meant)) continue;
    (out ??= []).push({ written, meant });
  }
  return out ?? NONE;
}

const NONE: readonly MiscasedKey[] = [];

/**
 * `doc` as meant: a copy with each key of `miscased` spelled right, in its place (the values are shared, not
 * copied); `doc` itself when there is none.
 */
export function asMeant(doc: unknown, miscased: readonly MiscasedKey[]): unknown {
  if (miscased.length === 0 || !isRecord(doc)) return doc;
  const out: Rec = {};
  for (const key of Object.keys(doc)) {
    const meant = miscased.find((m) => m.written === key)?.meant ?? key;
    Object.defineProperty(out, meant, { value: doc[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The key `doc` writes for the object key `meant`: `Spec` where the document has `Spec:` and no `spec:`, else
 * `meant`. Where a finding on the object as meant is in the text (the loader's positions).
 */
export function writtenKey(doc: unknown, meant: string | number): string | number {
  if (
    typeof meant !== 'string' ||
    !isRecord(doc) ||
    Object.hasOwn(doc, meant) ||
    BY_LOWER.get(meant.toLowerCase()) !== meant
  ) {
    return meant;
  }
  return miscasedKeys(doc).find((m) => m.meant === meant)?.written ?? meant;
}

/**
 * Whether a document found in a directory walk is meant as a Kubernetes object (a chart's values.yaml is not): it
 * has `kind`, or `kind` and `apiVersion` both written in some case (`Kind:` beside `apiVersion:`).
 */
export function looksLikeObject(doc: unknown): boolean {
  if (!isRecord(doc)) return false;
  if (Object.hasOwn(doc, 'kind')) return true;
  let kind = false;
  let apiVersion = false;
  for (const key in doc) {
    if (!Object.hasOwn(doc, key)) continue;
    const lower = key.length === 4 || key.length === 10 ? key.toLowerCase() : '';
    if (lower === 'kind') kind = true;
    else if (lower === 'apiversion') apiVersion = true;
  }
  return kind && apiVersion;
}
