/** Helpers for JSON-like data shared by every layer: a realm-safe deep copy and the object guard. */

/** Whether `v` is a plain JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A deep copy of JSON-like data made of this realm's arrays and objects. Not `structuredClone`: it builds objects
 * in Node's main realm, and Pulumi's serializer tells arrays by `instanceof Array`, which fails across realms
 * (a jest or vm sandbox), turning lists into `{ "0": ... }` maps.
 */
export function plainCopy<T>(value: T): T {
  if (Array.isArray(value)) {
    const out: unknown[] = []; // not value.map: it builds the copy with the source array's (foreign) constructor
    for (const v of value) out.push(plainCopy(v));
    return out as T;
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainCopy(v);
    return out as T;
  }
  return value;
}
