/**
 * Reads manifests the way `kubectl apply -f` does: multi-document YAML or JSON, `List` kinds unwrapped, empty
 * documents skipped. Positions stay available for every loaded object (for SARIF and editor output) without
 * adding visible fields: a WeakMap keeps each object's YAML document and line counter.
 *
 * Plain manifests take a fast path: each document is read by js-yaml (several times faster than building the
 * `yaml` library's node tree), and the node tree with positions is built only for a document a finding points
 * into. Anything the fast path does not read exactly as `yaml` does (directives, document end markers, anchors
 * and aliases, tags it does not know, any error) goes through `yaml` as a whole, so errors read the same.
 */
import type * as JsYaml from 'js-yaml';
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  parseDocument,
  visit,
  type Document,
} from 'yaml';
import { writtenKey } from '../model/key-case';
import { isRecord } from '../model/util';
import { releaseScanTable, scanOffset, type ScanDocument } from './path-scan';

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
  /** Lines before the document's text, for a document parsed on its own (the fast path). */
  readonly lineOffset?: number;
  /** The object as loaded, for the engine's copy of it with its keys spelled right (`rememberMeant`). */
  readonly written?: object;
}

/** A document the fast path read: its text, parsed with positions only when a finding points into it. */
interface LazyDocument extends ScanDocument {
  /** Lines before it in the input. */
  readonly lineOffset: number;
}

/** What locating inside a fast-path document needs, built on demand (`positionsOf`). */
interface LazyPositions {
  /** Where its keys and items start, from js-yaml's node events; null when they could not be read exactly. */
  index?: PositionNode | null;
  /** Its offset of each line start, for line and column. */
  lineStarts?: number[];
  parsed?: { readonly doc: Document.Parsed; readonly lineCounter: LineCounter };
}

/**
 * The positions of the documents located in most recently, oldest first. Kept for a few documents only: kept for
 * every document, they held more memory than the objects themselves (290 MB for 40 MB of manifests). Findings are
 * located in input order (`DiagnosticSink.diagnostics`), so each document's are built once.
 */
const RECENT_POSITIONS = new Map<LazyDocument, LazyPositions>();
const RECENT_POSITIONS_KEPT = 8;

/**
 * Lets the kept positions go: `DiagnosticSink.diagnostics` calls it once every finding is placed, so a run leaves
 * nothing behind (the index of a ResourceList of thousands of items is hundreds of megabytes).
 * @internal
 */
export function releasePositions(): void {
  RECENT_POSITIONS.clear();
  releaseScanTable();
}

function positionsOf(lazy: LazyDocument): LazyPositions {
  let positions = RECENT_POSITIONS.get(lazy);
  if (positions !== undefined) {
    RECENT_POSITIONS.delete(lazy);
  } else {
    positions = {};
    if (RECENT_POSITIONS.size >= RECENT_POSITIONS_KEPT) {
      RECENT_POSITIONS.delete(RECENT_POSITIONS.keys().next().value!);
    }
  }
  RECENT_POSITIONS.set(lazy, positions);
  return positions;
}

/** A node as js-yaml composed it: where it starts, and its children (a mapping's keys and values alternate). */
interface PositionNode {
  readonly start: number;
  /** js-yaml's kind: `mapping`, `sequence`, `scalar`; null for an alias. */
  kind?: string | null;
  result?: unknown;
  readonly children: PositionNode[];
}

/**
 * Where the keys and items of a document start, read from js-yaml's node events (a second js-yaml pass over one
 * document, several times cheaper than `yaml`'s node tree). Null when the events do not line up with the value
 * (an empty sequence entry composes no node): `yaml` then gives the positions.
 */
function indexPositions(text: string): PositionNode | null {
  const stack: PositionNode[] = [];
  let root: PositionNode | undefined;
  try {
    fastYaml().yaml.load(text, {
      schema: fastYaml().schema,
      listener(event: string, state: { position: number; kind: string; result: unknown }) {
        if (event === 'open') {
          stack.push({ start: state.position, children: [] });
          return;
        }
        const node = stack.pop();
        if (node === undefined) return;
        node.kind = state.kind;
        node.result = state.result;
        const parent = stack[stack.length - 1];
        if (parent !== undefined) parent.children.push(node);
        else root = node;
      },
    } as JsYaml.LoadOptions);
  } catch {
    return null;
  }
  return root !== undefined && linedUp(root) ? root : null;
}

/** Whether every mapping has a key and a value node per entry and every sequence a node per item. */
function linedUp(root: PositionNode): boolean {
  const todo = [root];
  while (todo.length > 0) {
    const node = todo.pop()!;
    const node0 = unwrap(node);
    if (node0.kind === 'mapping' && node0.children.length % 2 !== 0) return false;
    if (node0.kind === 'sequence' && node0.children.length !== (node0.result as unknown[]).length) return false;
    for (const c of node0.children) todo.push(c);
  }
  return true;
}

/** js-yaml composes a block sequence entry as a node around its content: the inner node holds the children. */
function unwrap(node: PositionNode): PositionNode {
  let n = node;
  while (n.children.length === 1 && n.kind === n.children[0].kind && n.result === n.children[0].result)
    n = n.children[0];
  return n;
}

/**
 * The offset of the key or item at `segments`, or of its nearest present parent: the document's content start when
 * not even the first segment is present (as `yaml`'s `contents.range[0]`: js-yaml opens the root node there, after
 * the `---` line and any comments). Undefined where the two may differ: at a node with a tag or an anchor (js-yaml
 * starts it there, `yaml` at its content), at an alias, and past an alias to a collection (`yaml` follows it to the
 * anchored node; js-yaml keeps no children for it).
 */
function indexedOffset(root: PositionNode, segments: readonly (string | number)[], text: string): number | undefined {
  let node = unwrap(root);
  let offset = root.start;
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k];
    if (node.kind === 'mapping') {
      let found = -1;
      for (let i = 0; i + 1 < node.children.length; i += 2) {
        if (String(node.children[i].result) === String(seg)) found = i;
      }
      if (found < 0) break;
      offset = node.children[found].start;
      node = unwrap(node.children[found + 1]);
    } else if (node.kind === 'sequence' && typeof seg === 'number' && seg < node.children.length) {
      offset = node.children[seg].start;
      node = unwrap(node.children[seg]);
    } else {
      // An alias composes no node of its own kind: what it names is read by `yaml`.
      if (node.kind === null && typeof node.result === 'object' && node.result !== null) return undefined;
      break;
    }
  }
  const at = text.charCodeAt(offset);
  return at === 0x21 /* ! */ || at === 0x26 /* & */ || at === 0x2a /* * */ ? undefined : offset;
}

function lineStartsOf(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/** The 1-based line and column of `offset` in a fast-path document, counted from the start of the input. */
function lazyPosition(lazy: LazyDocument, positions: LazyPositions, offset: number): { line: number; column: number } {
  const starts = (positions.lineStarts ??= lineStartsOf(lazy.text));
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lazy.lineOffset + lo + 1, column: offset - starts[lo] + 1 };
}

/**
 * The fast path's reading of an object's document (its text, js-yaml's value of it, the object's place in it), for
 * the tests that hold `scanOffset` to the index.
 * @internal
 */
export function fastDocumentOf(
  obj: object,
): { readonly doc: ScanDocument; readonly base: readonly (string | number)[] } | undefined {
  const found = ORIGINS.get(obj);
  return found !== undefined && 'lazy' in found ? { doc: found.lazy, base: found.base } : undefined;
}

/**
 * What js-yaml's node index of a document's text says for a path's segments: an offset, or undefined where `yaml`
 * is asked.
 * @internal
 */
export function indexOffsets(text: string): (segments: readonly (string | number)[]) => number | undefined {
  const index = indexPositions(text);
  return (segments) => (index === null ? undefined : indexedOffset(index, segments, text));
}

/** Where `offset` in a fast-path document is in the input: its lines counted up to there. */
function linePosition(lazy: LazyDocument, offset: number, source: string | undefined): SourcePosition {
  const text = lazy.text;
  let lines = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    lines++;
    start = i + 1;
  }
  return positionOf(source, lazy.lineOffset + lines + 1, offset - start + 1);
}

interface LazyOrigin {
  readonly lazy: LazyDocument;
  readonly source?: string;
  readonly base: readonly (string | number)[];
  /** As `Origin.written`. */
  readonly written?: object;
}

const ORIGINS = new WeakMap<object, Origin | LazyOrigin>();

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
  // Two stacks side by side rather than a pair per node: this runs over every node of every document read.
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop();
    const d = depths.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > limit) return true;
    if (Array.isArray(v)) {
      for (const child of v) {
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(d + 1);
        }
      }
      continue;
    }
    // for...in rather than Object.values: no array per mapping.
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      const child: unknown = (v as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(d + 1);
      }
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

/** What a JSON type is called in messages. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/**
 * Why a `List` kind (`PodList`, `v1 List`) cannot be read as objects: `items` that is not a list, or an item that
 * is not an object. kubectl refuses both; read as one object, `items: "x"` would lint as "No problems in 1 object".
 * An absent or null `items` is an empty list; a kind that ends in List without `items` (a CRD) is an object.
 */
function listItemsProblem(value: unknown): { at: (string | number)[]; message: string } | undefined {
  if (!isRecord(value) || !isListKind(value.kind) || !('items' in value)) return undefined;
  const kind = String(value.kind);
  const items = value.items;
  if (items === null || items === undefined) return undefined;
  if (!Array.isArray(items)) {
    return {
      at: ['items'],
      message: `items of a ${kind} must be a list of objects; here it is ${typeName(items)}. Write items: [ {apiVersion: ..., kind: ..., ...} ].`,
    };
  }
  const bad = items.findIndex((item) => !isRecord(item));
  if (bad < 0) return undefined;
  return {
    at: ['items', bad],
    message: `items[${bad}] of a ${kind} must be an object (apiVersion, kind, metadata, ...); here it is ${typeName(items[bad])}.`,
  };
}

/** A List kind with `items:` written empty (null): no objects, as kubectl reads it. */
function isEmptyList(value: unknown): boolean {
  return isRecord(value) && isListKind(value.kind) && 'items' in value && value.items === null;
}

function remember(obj: unknown, origin: Origin | LazyOrigin): void {
  if (typeof obj === 'object' && obj !== null && !ORIGINS.has(obj)) ORIGINS.set(obj, origin);
}

/**
 * Loads every document it can and reports the malformed ones with their line and column, so one bad document in
 * a Helm or Kustomize output does not hide the rest.
 */
export function loadManifestsWithErrors(
  input: string,
  source?: string,
  /** @internal `{ fast: false }` reads through `yaml` only: the tests hold the fast path to it. */
  internal?: { readonly fast?: boolean },
): LoadResult {
  // A byte-order mark is not part of the first line: positions are counted without it, as editors show them.
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const fast = internal?.fast === false ? undefined : loadFast(text, source);
  if (fast !== undefined) return fast;
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

/** js-yaml's YAML 1.2 core schema with `<<` merge keys: what `yaml` reads with `{ merge: true }`. */
let fast: { readonly yaml: typeof JsYaml; readonly schema: JsYaml.Schema } | undefined;
/** js-yaml and its schema, loaded on the first text read (a construct program never reads one). */
function fastYaml(): { readonly yaml: typeof JsYaml; readonly schema: JsYaml.Schema } {
  if (fast) return fast;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('js-yaml') as typeof JsYaml;
  // js-yaml exports its built-in types at run time; its typings omit them.
  const merge = (yaml as unknown as { readonly types: { readonly merge: JsYaml.Type } }).types.merge;
  // Implicit, as in js-yaml's default schema: a plain `<<` key merges (an array passed to extend() adds explicit types,
  // which only `!!merge` would reach).
  return (fast = { yaml, schema: yaml.CORE_SCHEMA.extend({ implicit: [merge] }) });
}

/**
 * One YAML document read by js-yaml as the fast path reads it (YAML 1.2 core schema, `<<` merge keys, js-yaml's
 * nesting limit); throws what js-yaml throws.
 * @internal
 */
export function readWhole(text: string): unknown {
  return fastYaml().yaml.load(text, { schema: fastYaml().schema, maxDepth: FAST_MAX_DEPTH } as JsYaml.LoadOptions);
}

/**
 * What the fast path leaves to `yaml` in one document: explicit `?` keys (js-yaml places them otherwise) and an alias
 * used as a key (`*a: x`: js-yaml names the key otherwise). Directives (`%YAML`) and document end markers (`...`)
 * send the whole stream to `yaml` (STREAM_EXCLUDED). A false alarm only costs speed.
 */
const EXPLICIT_KEY = /^[ \t-]*\?(?:[ \t]|$)/m;
const ALIAS_KEY = /(?:^|[\s[{,:-])\*[^\s,[\]{}]*[ \t]*:/m;

/**
 * A `<<` merge whose sources may hold a list: js-yaml merges a list found among a merge's sources (`<<: [[]]`) where
 * `yaml` refuses the document ("Merge sources must be maps or map aliases"). The fast path keeps a merge of a flow
 * mapping, and of an alias when no anchor in the document may name a list; anything else goes to `yaml`.
 */
const MERGE_NOT_MAPPING = /<<[ \t]*:(?![ \t]*[{*])/;
const MERGE_ALIAS = /<<[ \t]*:[ \t]*\*/;
/** An anchor not followed by a flow mapping: it may name a list. */
const ANCHOR_NOT_MAPPING = /&[^\s,[\]{}]+(?=[\s,[\]{}]|$)(?![ \t]*\{)/;

/** Whether a document holds what the fast path leaves to `yaml` (the regular expressions only where they can match: they try every offset). */
function fastPathExcluded(chunk: string): boolean {
  return (
    (chunk.includes('?') && EXPLICIT_KEY.test(chunk)) ||
    (chunk.includes('*') && ALIAS_KEY.test(chunk)) ||
    (chunk.includes('<<') &&
      (MERGE_NOT_MAPPING.test(chunk) || (MERGE_ALIAS.test(chunk) && ANCHOR_NOT_MAPPING.test(chunk))))
  );
}

/**
 * Where an alias may start: `*name` at a line start, after white space or a flow indicator, or right after the `:`
 * of a JSON-like key (`"k":*a`). Elsewhere (`a:*b`, `x-*`) a `*` is part of a plain scalar.
 */
const ALIAS = /(?:^|[\s[{,]|[\]}"']:)\*[^\s,[\]{}]/gm;

/**
 * Aliases a document read by js-yaml may hold. `yaml` refuses a document whose aliases expand past
 * `MAX_ALIAS_COUNT` (an alias bomb), counting an alias's expansion as doubling along a chain: ten aliases, each
 * naming the anchor that holds the one before, already pass the limit, and no arrangement of nine or fewer does
 * (a search over chains, fan-outs, nested lists and merge keys of up to ten aliases found no other that passes it
 * below ten). A document with more goes to `yaml`, which says whether it is a bomb.
 */
const FAST_ALIASES = 9;

/** Whether a document has more aliases than the fast path reads (false alarms only cost speed). */
function manyAliases(chunk: string): boolean {
  if (!chunk.includes('*')) return false;
  let n = 0;
  for (ALIAS.lastIndex = 0; ALIAS.exec(chunk) !== null;) if (++n > FAST_ALIASES) return true;
  return false;
}

/**
 * The nesting js-yaml reads (its default, said here because the depth check relies on it): a deeper document goes
 * to `yaml`, which reads up to MAX_DOCUMENT_DEPTH.
 */
const FAST_MAX_DEPTH = 100;

/** What makes the documents' boundaries other than the `---` lines: the whole text then goes to `yaml`. */
const STREAM_EXCLUDED = /^%|^\.\.\.(?:[ \t]|$)/m;

/** A line that starts a document: `---` alone or followed by a space or tab. */
const DOCUMENT_START = /^---(?=[ \t\r\n]|$)/gm;

/**
 * Every object of `text`, each remembered with its document's text for positions on demand; or undefined when the
 * text holds directives or document end markers (its documents are then not split at `---` lines, and `yaml` reads
 * it whole). A document the fast path leaves to `yaml` (an anchor, or a false alarm such as `&&` in a string) or
 * that js-yaml refuses is read by `yaml` alone, with its positions and errors counted from the text's start: one
 * such document no longer sends a 40 MB stream through the slow reader.
 */
function loadFast(text: string, source: string | undefined): LoadResult | undefined {
  const spans = loadSpans(text, source);
  if (spans === undefined) return undefined;
  const objects: unknown[] = [];
  for (const span of spans.spans) for (const o of span.objects) objects.push(o.value);
  return { objects, errors: spans.errors };
}

/** One document of a text as the fast path splits it: from its `---` line to the next one. */
export interface DocumentSpan {
  /** Offset of its first character in the text (after a byte-order mark). */
  readonly start: number;
  /** Offset after its last character: the next document's start, or the end of the text. */
  readonly end: number;
  /** Its objects (List items unwrapped); none for an empty or malformed document. */
  readonly objects: readonly DocumentObject[];
  /** Lines before it in the text. */
  readonly line: number;
  /**
   * Whether js-yaml read it (its objects' positions come from its own text, on demand) rather than `yaml` (an
   * anchor, say, or an error).
   */
  readonly fast: boolean;
  /** js-yaml's value of the whole document (a List with its envelope), where it read it. */
  readonly value?: unknown;
}

/**
 * The documents of `text` (a byte-order mark already removed), split at `---` lines, with their objects remembered
 * for positions as `loadManifestsWithErrors` remembers them; undefined when directives or document end markers
 * leave the split to `yaml`. `fixManifestSet` reads a text this way and builds a `yaml` Document only for a
 * document it edits.
 * @internal
 */
export function loadSpans(
  text: string,
  source: string | undefined,
  /**
   * What `readWhole` gave for this text, read already by the caller (`fix --krm` reads the ResourceList's envelope
   * so): used for a text of one document instead of reading it again.
   */
  read?: { readonly value: unknown },
  /**
   * js-yaml's value of the document at `start` whose text is `chunk`, where the caller has it already (`fix`'s next
   * pass: the documents it left alone, and those it wrote and read back); undefined to read it here.
   */
  known?: (start: number, chunk: string) => unknown,
): { readonly spans: DocumentSpan[]; readonly errors: LoadError[] } | undefined {
  if (STREAM_EXCLUDED.test(text)) return undefined;
  const spans: DocumentSpan[] = [];
  const errors: LoadError[] = [];
  const starts = [0];
  for (const m of text.matchAll(DOCUMENT_START)) if (m.index > 0) starts.push(m.index);
  let line = 0;
  let previous = 0;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i];
    const end = i + 1 < starts.length ? starts[i + 1] : text.length;
    line += countLines(text, previous, start);
    previous = start;
    const chunk = text.slice(start, end);
    const objects: DocumentObject[] = [];
    let value: unknown;
    let reused = false;
    let slow = fastPathExcluded(chunk) || manyAliases(chunk);
    if (!slow) {
      try {
        const given = read !== undefined && starts.length === 1 ? undefined : known?.(start, chunk);
        reused = given !== undefined;
        value = read !== undefined && starts.length === 1 ? read.value : (given ?? readWhole(chunk));
        // js-yaml refuses nesting past FAST_MAX_DEPTH, so only an alias can make a value deeper than the limit.
        slow = value !== null && value !== undefined && chunk.includes('*') && depthExceeds(value, MAX_DOCUMENT_DEPTH);
      } catch {
        slow = true;
      }
    }
    // A List whose items are not a list of objects: `yaml` reports it with its position.
    if (slow || (value !== null && value !== undefined && listItemsProblem(value) !== undefined)) {
      spans.push({ start, end, objects, line, fast: false });
      readSlow(chunk, line, source, objects, errors);
      continue;
    }
    spans.push({ start, end, objects, line, fast: true, value });
    if (value === null || value === undefined || isEmptyList(value)) continue;
    const lazy: LazyDocument = { text: chunk, lineOffset: line, value };
    const add = (v: unknown, base: readonly (string | number)[]) => {
      const origin = { lazy, ...(source !== undefined ? { source } : {}), base };
      // A value read before (`known`) is placed anew: its lines are this text's now.
      if (reused && typeof v === 'object' && v !== null) ORIGINS.set(v, origin);
      else remember(v, origin);
      objects.push({ value: v, base });
    };
    if (isRecord(value) && isListKind(value.kind) && Array.isArray(value.items)) {
      value.items.forEach((item: unknown, k: number) => add(item, ['items', k]));
    } else {
      add(value, []);
    }
  }
  return { spans, errors };
}

/**
 * Remembers an item of a List read by the fast path with its own text (`text`: the item in place under an `items:`
 * line, so its base is `['items', 0]`), `lineOffset` lines into the input: positions inside it then index that text
 * alone, not the whole List (for a ResourceList of thousands of items, hundreds of megabytes). `fixManifestSet`
 * does this for the Lists it fixes item by item.
 * @internal
 */
export function rememberListItem(value: unknown, text: string, lineOffset: number, source: string | undefined): void {
  if (typeof value !== 'object' || value === null) return;
  // The text reads as a List of this one item: what the path scan checks its way along (`items`, then the item).
  const lazy: LazyDocument = { text, lineOffset, value: { items: [value] } };
  ORIGINS.set(value, { lazy, ...(source !== undefined ? { source } : {}), base: ['items', 0] });
}

/**
 * js-yaml's reading of a one-document `text` where the fast path would take it (so it reads as `yaml` reads it),
 * else undefined: directives or end markers, what the fast path leaves to `yaml`, more than one document, an error.
 * `fix` checks what it writes back with this before asking `yaml`.
 * @internal
 */
export function readFast(text: string): { readonly value: unknown } | undefined {
  if (STREAM_EXCLUDED.test(text) || fastPathExcluded(text) || manyAliases(text)) return undefined;
  let value: unknown;
  try {
    value = readWhole(text);
  } catch {
    return undefined;
  }
  if (value !== null && value !== undefined && text.includes('*') && depthExceeds(value, MAX_DOCUMENT_DEPTH)) {
    return undefined;
  }
  return { value };
}

/** Whether `text` may hold an alias (false alarms only cost speed). */
export function mayHoldAliases(text: string): boolean {
  if (!text.includes('*')) return false;
  ALIAS.lastIndex = 0;
  return ALIAS.test(text);
}

/** One document read by `yaml` alone, its lines counted from `lineOffset`: its objects, or its errors. */
function readSlow(
  chunk: string,
  lineOffset: number,
  source: string | undefined,
  objects: DocumentObject[],
  errors: LoadError[],
): void {
  const lineCounter = new LineCounter();
  const parsed = parseDocuments(chunk, lineCounter, source);
  if ('error' in parsed) {
    errors.push({ ...parsed.error, line: parsed.error.line + lineOffset });
    return;
  }
  for (const doc of parsed.docs) {
    const read = readDocument(doc, lineCounter, source);
    if ('errors' in read) {
      errors.push(...read.errors.map((e) => ({ ...e, line: e.line + lineOffset })));
      continue;
    }
    for (const { value, base } of read.objects) {
      remember(value, { doc, lineCounter, ...(source !== undefined ? { source } : {}), base, lineOffset });
      objects.push({ value, base });
    }
  }
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The positions of a fast-path document: its `yaml` node tree, built on first demand. */
function parsedOrigin(origin: Origin | LazyOrigin): Origin {
  if (!('lazy' in origin)) return origin;
  const lazy = origin.lazy;
  const positions = positionsOf(lazy);
  if (positions.parsed === undefined) {
    const lineCounter = new LineCounter();
    const doc = parseDocument(lazy.text, { ...PARSE_OPTIONS, lineCounter }) as Document.Parsed;
    positions.parsed = { doc, lineCounter };
  }
  return {
    ...positions.parsed,
    ...(origin.source !== undefined ? { source: origin.source } : {}),
    base: origin.base,
    lineOffset: lazy.lineOffset,
  };
}

/**
 * The keys written twice in one mapping of `doc` (kubectl refuses them), found in one pass: the `yaml` library's
 * own check compares each key with every key before it, which takes minutes for a mapping of 80,000 keys, so
 * callers that parse text of any size turn it off (`uniqueKeys: false`) and ask here. `<<` merge keys may repeat.
 */
export function duplicateKeys(doc: Document): { readonly offset: number; readonly key: string }[] {
  const out: { offset: number; key: string }[] = [];
  visit(doc, {
    Map(_, map) {
      if (map.items.length < 2) return;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key: unknown = pair.key.value;
        if (typeof key === 'symbol' || pair.key.source === '<<') continue;
        if (seen.has(key)) out.push({ offset: pair.key.range?.[0] ?? 0, key: String(key) });
        else seen.add(key);
      }
    },
  });
  return out;
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
  const listProblem = listItemsProblem(value);
  if (listProblem !== undefined) {
    const at = doc.getIn(listProblem.at, true) as { range?: [number, number, number] } | undefined;
    return { errors: [{ ...position(at?.range?.[0] ?? doc.range[0]), message: listProblem.message }] };
  }
  if (isEmptyList(value)) return { objects: [] };
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

/**
 * Places `meant`, the engine's copy of a loaded object with its keys spelled right (`kind` for a written `Kind`:
 * model/key-case.ts), where `written` is: its source is `written`'s, and its paths point at the keys as written.
 * @internal
 */
export function rememberMeant(meant: object, written: object): void {
  const origin = ORIGINS.get(written);
  if (origin !== undefined && meant !== written) ORIGINS.set(meant, { ...origin, written });
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
  // Slices between the separators rather than a string grown by a character: every finding's path is split.
  const out: (string | number)[] = [];
  let from = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x2e /* . */) {
      if (i > from) out.push(path.slice(from, i));
      from = i + 1;
    } else if (c === 0x5b /* [ */) {
      if (i > from) out.push(path.slice(from, i));
      const end = path.indexOf(']', i + 1);
      const inner = end < 0 ? path.slice(i + 1) : path.slice(i + 1, end);
      out.push(/^\d+$/.test(inner) ? Number(inner) : unquote(inner));
      i = end < 0 ? path.length : end;
      from = i + 1;
    }
  }
  if (from < path.length) out.push(path.slice(from));
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
  return sourcePositionAt(obj, parsePath(path));
}

/** `{ source, line, column }`, without `source` when there is none: built directly (many findings are placed). */
function positionOf(source: string | undefined, line: number, column: number): SourcePosition {
  return source !== undefined ? { source, line, column } : { line, column };
}

/**
 * `sourcePosition` with the path already split (`parsePath`): the findings' path segments are kept as they are.
 * @internal
 */
export function sourcePositionAt(obj: unknown, pathSegments: readonly (string | number)[]): SourcePosition | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const found = ORIGINS.get(obj);
  if (!found) return undefined;
  // A key written in another case (`Spec:`) is where the object's path (`spec.…`) starts in the text.
  const first = pathSegments.length > 0 ? writtenKey(found.written ?? obj, pathSegments[0]) : undefined;
  const path = first === undefined || first === pathSegments[0] ? pathSegments : [first, ...pathSegments.slice(1)];
  const segments = found.base.length === 0 ? path : [...found.base, ...path];
  if ('lazy' in found) {
    const lazy = found.lazy;
    // Most findings are placed from the lines along their path; the index is built only where that cannot say.
    const scanned = scanOffset(lazy, segments);
    if (scanned !== undefined) return linePosition(lazy, scanned, found.source);
    const positions = positionsOf(lazy);
    if (positions.index === undefined) positions.index = indexPositions(lazy.text);
    const offset = positions.index === null ? undefined : indexedOffset(positions.index, segments, lazy.text);
    // No index (or a tagged root): the yaml node tree says where.
    if (offset !== undefined) {
      return {
        ...(found.source !== undefined ? { source: found.source } : {}),
        ...lazyPosition(lazy, positions, offset),
      };
    }
  }
  const origin = parsedOrigin(found);
  const { doc, lineCounter } = origin;
  let node: unknown = doc.contents;
  let offset = (doc.contents as { range?: [number, number, number] } | null)?.range?.[0] ?? doc.range[0];
  for (const seg of segments) {
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
  return {
    ...(origin.source !== undefined ? { source: origin.source } : {}),
    line: line + (origin.lineOffset ?? 0),
    column: col,
  };
}
