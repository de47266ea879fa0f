/**
 * Reads manifests the way `kubectl apply -f` does: multi-document YAML or JSON, `List` kinds unwrapped, empty
 * documents skipped. Positions stay available for every loaded object (for SARIF and editor output) without
 * adding visible fields: a WeakMap keeps each object's YAML document and line counter.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document } from 'yaml';
import { isRecord } from './util';

export interface SourcePosition {
  /** The `source` given to the loader (a file name), when one was. */
  readonly source?: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

export interface LoadError extends SourcePosition {
  /** What the YAML parser found wrong. */
  readonly message: string;
}

export interface LoadResult {
  /** Every object of every well-formed document, List items unwrapped, in order. */
  readonly objects: unknown[];
  /** One entry per problem in a malformed document; that document is skipped, the others are loaded. */
  readonly errors: LoadError[];
}

interface Origin {
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
  readonly source?: string;
  /** Where the object sits inside its document: `['items', 3]` for an item of a List. */
  readonly base: readonly (string | number)[];
}

const ORIGINS = new WeakMap<object, Origin>();

/** kubectl's YAML reader resolves `<<` merge keys; aliases are bounded so a hostile document cannot explode. */
const PARSE_OPTIONS = { merge: true, prettyErrors: false } as const;
export const MAX_ALIAS_COUNT = 1000;

/**
 * Kubernetes objects are a few dozen levels deep at most; anything far deeper is hostile or broken input and would
 * exhaust the stack of recursive readers downstream.
 */
export const MAX_DOCUMENT_DEPTH = 200;

/** The nesting depth of a plain value, iteratively (a deep value must not overflow the stack here either). */
export function depthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
    }
  }
  return false;
}

export const TOO_DEEP = `the document is nested more than ${MAX_DOCUMENT_DEPTH} levels deep, which no Kubernetes object is; it was not read.`;

export function describeLoadError(e: unknown): string {
  if (e instanceof RangeError || (e instanceof Error && /call stack/i.test(e.message))) return TOO_DEEP;
  return e instanceof Error ? e.message : String(e);
}

function isListKind(kind: unknown): boolean {
  return typeof kind === 'string' && kind.endsWith('List');
}

function remember(obj: unknown, origin: Origin): void {
  if (typeof obj === 'object' && obj !== null && !ORIGINS.has(obj)) ORIGINS.set(obj, origin);
}

/**
 * Loads every document it can and reports the malformed ones with their line and column, so one bad document in
 * a Helm or Kustomize output does not hide the rest.
 */
export function loadManifestsWithErrors(input: string, source?: string): LoadResult {
  // A byte-order mark is not part of the first line: positions are counted without it, as editors show them.
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const objects: unknown[] = [];
  const errors: LoadError[] = [];
  const lineCounter = new LineCounter();
  const parsed = parseDocuments(text, lineCounter, source);
  if ('error' in parsed) return { objects, errors: [parsed.error] };
  for (const doc of parsed.docs) {
    const read = readDocument(doc, lineCounter, source);
    if ('errors' in read) {
      errors.push(...read.errors);
      continue;
    }
    for (const { value, base } of read.objects) {
      remember(value, { doc, lineCounter, ...(source !== undefined ? { source } : {}), base });
      objects.push(value);
    }
  }
  return { objects, errors };
}

/**
 * Every document of `text`, parsed as kubectl's reader would (merge keys resolved). A text the parser itself
 * cannot read (nested too deeply for it) is one error at its start.
 */
export function parseDocuments(
  text: string,
  lineCounter: LineCounter,
  source?: string,
): { readonly docs: Document.Parsed[] } | { readonly error: LoadError } {
  try {
    const parsed = parseAllDocuments(text, { ...PARSE_OPTIONS, lineCounter });
    // parseAllDocuments returns an EmptyStream (not an array) for text without documents.
    return { docs: Array.isArray(parsed) ? parsed : [] };
  } catch (e) {
    return {
      error: { ...(source !== undefined ? { source } : {}), line: 1, column: 1, message: describeLoadError(e) },
    };
  }
}

/** One object of a document: the document itself, or an item of a `List` with its place (`['items', 3]`). */
export interface DocumentObject {
  readonly value: unknown;
  readonly base: readonly (string | number)[];
}

/**
 * The objects of one parsed document (none for an empty one; `List` items unwrapped), or the problems that kept it
 * from being read: YAML errors, an alias bomb, nesting deeper than `MAX_DOCUMENT_DEPTH`.
 */
export function readDocument(
  doc: Document.Parsed,
  lineCounter: LineCounter,
  source?: string,
): { readonly objects: readonly DocumentObject[] } | { readonly errors: readonly LoadError[] } {
  const position = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { ...(source !== undefined ? { source } : {}), line, column: col };
  };
  if (doc.errors.length > 0) {
    return {
      errors: doc.errors.map((e) => ({
        ...position(e.pos[0]),
        message: /call stack/i.test(e.message) ? TOO_DEEP : e.message.split('\n')[0],
      })),
    };
  }
  if (doc.contents === null) return { objects: [] };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    return { errors: [{ ...position(doc.range[0]), message: describeLoadError(e) }] };
  }
  if (value === null || value === undefined) return { objects: [] };
  if (depthExceeds(value, MAX_DOCUMENT_DEPTH)) return { errors: [{ ...position(doc.range[0]), message: TOO_DEEP }] };
  if (isRecord(value) && isListKind(value.kind) && Array.isArray(value.items)) {
    return { objects: value.items.map((item: unknown, i: number) => ({ value: item, base: ['items', i] })) };
  }
  return { objects: [{ value, base: [] }] };
}

/**
 * Loads multi-document YAML or JSON. Throws one `Error` listing every malformed document (with line and column),
 * because a caller that wants objects only must not lint a partial set unknowingly; use `loadManifestsWithErrors`
 * to keep the well-formed documents and report the rest.
 */
export function loadManifests(text: string, source?: string): unknown[] {
  const { objects, errors } = loadManifestsWithErrors(text, source);
  if (errors.length > 0) {
    const where = source ?? '<input>';
    const lines = errors.map((e) => `  ${where}:${e.line}:${e.column}: ${e.message}`);
    throw new Error(
      `${errors.length} malformed YAML document problem${errors.length === 1 ? '' : 's'}:\n${lines.join('\n')}`,
    );
  }
  return objects;
}

/**
 * Records where an object read from `doc` sits, for `sourceOf` and `sourcePosition`: the fixer parses documents
 * itself (it edits them) and registers what it read the same way the loaders do.
 */
export function rememberOrigin(
  obj: unknown,
  doc: Document.Parsed,
  lineCounter: LineCounter,
  source: string | undefined,
  base: readonly (string | number)[],
): void {
  remember(obj, { doc, lineCounter, ...(source !== undefined ? { source } : {}), base });
}

/** The `source` an object was loaded from, if a loader read it. */
export function sourceOf(obj: unknown): string | undefined {
  return typeof obj === 'object' && obj !== null ? ORIGINS.get(obj)?.source : undefined;
}

/**
 * Splits `spec.containers[0].securityContext` and `metadata.labels[kubernetes.io/os]` (or the JSON-quoted
 * `metadata.labels["kubernetes.io/os"]`) into segments: the one parser of diagnostic paths.
 */
export function parsePath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  let cur = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '.') {
      if (cur !== '') out.push(cur);
      cur = '';
    } else if (c === '[') {
      if (cur !== '') out.push(cur);
      cur = '';
      const end = path.indexOf(']', i + 1);
      const inner = end < 0 ? path.slice(i + 1) : path.slice(i + 1, end);
      out.push(/^\d+$/.test(inner) ? Number(inner) : unquote(inner));
      i = end < 0 ? path.length : end;
    } else {
      cur += c;
    }
  }
  if (cur !== '') out.push(cur);
  return out;
}

/** `"kubernetes.io/os"` → `kubernetes.io/os`; anything not a JSON string is the key itself. */
function unquote(inner: string): string {
  if (!/^"(?:[^"\\]|\\.)*"$/.test(inner)) return inner;
  try {
    return JSON.parse(inner) as string;
  } catch {
    return inner;
  }
}

/** Segments back to API-server notation: `spec.containers[0]`, `nodeSelector[kubernetes.io/os]`. */
export function formatPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number' || !/^[A-Za-z0-9_-]+$/.test(seg)) out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

/**
 * The 1-based line and column of the node at an API-server path inside an object returned by the loaders,
 * falling back to the nearest existing ancestor, then to the document start. Undefined for objects the loaders
 * did not return.
 */
export function sourcePosition(obj: unknown, path: string): SourcePosition | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const origin = ORIGINS.get(obj);
  if (!origin) return undefined;
  const { doc, lineCounter } = origin;
  let node: unknown = doc.contents;
  let offset = (doc.contents as { range?: [number, number, number] } | null)?.range?.[0] ?? doc.range[0];
  for (const seg of [...origin.base, ...parsePath(path)]) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(seg));
      if (!pair) break;
      const at = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (at !== undefined) offset = at;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (item === undefined) break;
      const at = (item as { range?: [number, number, number] }).range?.[0];
      if (at !== undefined) offset = at;
      node = item;
    } else {
      break;
    }
  }
  const { line, col } = lineCounter.linePos(offset);
  return { ...(origin.source !== undefined ? { source: origin.source } : {}), line, column: col };
}
