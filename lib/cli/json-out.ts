/**
 * JSON output (`--format json`, SARIF) written in pieces: the text is `JSON.stringify(value, null, 2)` plus a line
 * break, but produced a top-level entry or array item at a time, so a report of a 50 MB input (a few hundred MB
 * of JSON) is never one string (V8 refuses strings over about 512 MB) nor held whole in memory. Characters a
 * terminal acts on that JSON.stringify leaves raw (DEL, the C1 controls such as U+009B, which some terminals read
 * as CSI, and the bidirectional overrides) are written as `\u` escapes: the JSON means the same.
 */

/** The characters JSON.stringify writes raw that a terminal may act on, or that reorder what is shown. */
const RAW = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeRaw(text: string): string {
  return text.replace(RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Pieces of `JSON.stringify(value, null, 2)`: top-level members and the items of arrays within them one by one. */
export function* jsonPieces(value: unknown, indent = '', depth = 0): Generator<string> {
  const inner = `${indent}  `;
  if (depth < 2 && Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '' : ','}\n${inner}`;
      const item: unknown = value[i];
      // As JSON.stringify: an array item it cannot write is null.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* jsonPieces(item, inner, depth + 1);
    }
    yield `\n${indent}]`;
    return;
  }
  if (depth < 2 && isPlainObject(value)) {
    const entries = Object.entries(value).filter(
      ([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol',
    );
    if (entries.length === 0) {
      yield '{}';
      return;
    }
    yield '{';
    let first = true;
    for (const [k, v] of entries) {
      yield `${first ? '' : ','}\n${inner}${JSON.stringify(k)}: `;
      first = false;
      yield* jsonPieces(v, inner, depth + 1);
    }
    yield `\n${indent}}`;
    return;
  }
  const text = JSON.stringify(value, null, 2);
  yield indent === '' ? text : text.replace(/\n/g, `\n${indent}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Writes `value` as indented JSON and a line break to `sink`, in chunks of about 64 KiB. */
/** Where JSON goes: anything with `write(string)` (run.ts's OutputSink; not imported, so this module stays a leaf). */
interface JsonSink {
  write(chunk: string): unknown;
}

export function writeJson(value: unknown, sink: JsonSink): void {
  let buffer = '';
  for (const piece of jsonPieces(value)) {
    buffer += piece;
    if (buffer.length >= 65536) {
      sink.write(escapeRaw(buffer));
      buffer = '';
    }
  }
  sink.write(`${escapeRaw(buffer)}\n`);
}

/** The same text as one string, for small values (tests, the rules catalogue). */
export function jsonText(value: unknown): string {
  let out = '';
  writeJson(value, { write: (s: string) => (out += s) });
  return out;
}
