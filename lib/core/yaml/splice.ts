/**
 * Writes an edited document back as its own source with splices: the edits are made on the `yaml` Document (where
 * they are checked), then the Document is compared with what it held when parsed, and only what differs is written
 * into the source text, at the original node positions and in the document's own style (block, flow or JSON,
 * indentation, quoting, line endings). Every other byte stays as it was. A difference this cannot write (rare
 * shapes no fixer makes: a block mapping for a one-line list item, keys reordered, a block scalar replaced), or a
 * result that would not read back as the edited document, returns undefined and the caller re-renders the document.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  Document,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  Scalar,
  type Pair,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { MAX_ALIAS_COUNT, readFast } from './loader';

type Collection = YAMLMap | YAMLSeq;

/** What a document held when parsed: each collection's items, each pair's value, each scalar's value. */
interface Snapshot {
  readonly items: Map<Collection, readonly unknown[]>;
  readonly values: Map<Pair, unknown>;
  readonly scalars: Map<Scalar, unknown>;
}

const SNAPSHOTS = new WeakMap<Document, Snapshot>();

/**
 * Records the parsed state of the nodes an edit at `segments` can change, before it is made: each collection on
 * the way from the root (its items, its pairs' values, its scalars). A collection with no record was never on an
 * edit's way, so it is as parsed and the splicer passes it by: a ResourceList of thousands of items (one document)
 * records and visits only the items it edits.
 */
export function rememberParsed(doc: Document, segments: readonly (string | number)[]): void {
  let snap = SNAPSHOTS.get(doc);
  if (snap === undefined) {
    snap = { items: new Map(), values: new Map(), scalars: new Map() };
    SNAPSHOTS.set(doc, snap);
  }
  const known = snap;
  const scalar = (node: unknown) => {
    if (isScalar(node) && !known.scalars.has(node)) known.scalars.set(node, node.value);
  };
  const record = (node: unknown) => {
    if (!isCollection(node)) {
      scalar(node);
      return;
    }
    if (known.items.has(node)) return;
    known.items.set(node, [...node.items]);
    for (const item of node.items) {
      if (isPair(item)) {
        known.values.set(item, item.value);
        scalar(item.key);
        scalar(item.value);
      } else scalar(item);
    }
  };
  let node: unknown = doc.contents;
  record(node);
  for (const seg of segments) {
    if (isMap(node) || (isSeq(node) && typeof seg === 'number')) node = node.get(seg, true);
    else return;
    if (!isNode(node)) return;
    record(node);
  }
}

/** A shape the splicer does not write: the document is re-rendered instead. */
export class Unsupported extends Error {}

export interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Nesting depth: of insertions at one point, the deeper one comes first (it ends the inner collection). */
  readonly depth: number;
}

interface Ctx {
  readonly src: string;
  readonly docEnd: number;
  readonly doc: Document;
  readonly snap: Snapshot;
  readonly eol: string;
  /** The document is JSON: new text is JSON too. */
  readonly json: boolean;
  /** JSON written with a space after `:` and `,` (one-line JSON only; multi-line JSON puts items on lines). */
  readonly jsonSpaced: boolean;
  /** JSON written over several lines (`JSON.stringify(v, null, step)`), items each on a line. */
  readonly jsonLines: boolean;
  readonly jsonStep: number;
  /** Block style: the mapping indent step and whether sequences are indented under their key. */
  readonly indent: number;
  readonly indentSeq: boolean;
  /** Flow collections written `{ a: 1 }` rather than `{a: 1}`. */
  readonly padded: boolean;
  readonly splices: Splice[];
}

export interface DocStyle {
  readonly indent: number;
  readonly indentSeq: boolean;
  /**
   * The line break and flow padding of the whole document, when `src.slice(start, end)` is one item of a List
   * (fixed item by item): else they are read from that text.
   */
  readonly eol?: string;
  readonly padded?: boolean;
}

/** What a document's block keys vote for its style (styleOf in document.ts, the lines in direct.ts). */
export class StyleVotes {
  /** Block sequences written flush under their key (`key:\n- a`). */
  flush = 0;
  /** Block sequences indented under their key (`key:\n  - a`). */
  indented = 0;
  /** Mapping indent steps, by how many block mappings use each. */
  readonly indents = new Map<number, number>();

  /** A key at `keyColumn` over a block value whose first line starts at `column` (its dash's for a sequence). */
  add(keyColumn: number, column: number, sequence: boolean): void {
    if (sequence) {
      if (column === keyColumn) this.flush++;
      else if (column > keyColumn) this.indented++;
    } else if (column > keyColumn) {
      this.indents.set(column - keyColumn, (this.indents.get(column - keyColumn) ?? 0) + 1);
    }
  }

  /** The majority's style: the `yaml` library renders one per document. */
  style(): { indent: number; indentSeq: boolean } {
    const indent = [...this.indents].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 2;
    return { indent: Math.min(Math.max(indent, 1), 8), indentSeq: this.indented >= this.flush };
  }
}

/** Whether flow collections are mostly written `{ a: 1 }` rather than `{a: 1}` in `source`. */
export function paddedFlow(source: string): boolean {
  return (source.match(/[{[] [^\s}\]]/g)?.length ?? 0) > (source.match(/[{[][^\s}\]]/g)?.length ?? 0);
}

/**
 * The text of the document `doc` (its source is `src.slice(start, end)`) with its edits spliced in, or undefined
 * when a difference cannot be spliced or the result would not read back as the edited document. `doc` parsed from
 * `src.slice(0, end)` when `src.slice(0, start)` is the `items:` line a List item is parsed under: the read-back
 * then puts it in front of the result too.
 */
export function spliceDocument(
  src: string,
  start: number,
  end: number,
  doc: Document,
  style: DocStyle,
  context = '',
): string | undefined {
  const snap = SNAPSHOTS.get(doc);
  if (!snap || !isNode(doc.contents)) return undefined;
  const source = src.slice(start, end);
  const json = isCollection(doc.contents) && doc.contents.flow === true && isJSON(source);
  const ctx: Ctx = {
    src,
    docEnd: end,
    doc,
    snap,
    eol: style.eol ?? (source.includes('\r\n') ? '\r\n' : '\n'),
    json,
    jsonSpaced: /":\s/.test(source),
    jsonLines: json && /\n\s*"/.test(source),
    jsonStep: /\n( +)"/.exec(source)?.[1].length ?? 2,
    indent: style.indent,
    indentSeq: style.indentSeq,
    padded: style.padded ?? paddedFlow(source),
    splices: [],
  };
  let out: string;
  try {
    visitNode(ctx, doc.contents, false, 0);
    out = applySplices(src, start, end, ctx.splices);
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
  return readsBack(context + out, doc, json) ? out : undefined;
}

/** Whether `text` parses, alone, as one document equal to the edited one (and stays JSON when it was). */
function readsBack(text: string, doc: Document, json: boolean): boolean {
  if (json && !isJSON(text)) return false;
  const opts = { maxAliasCount: MAX_ALIAS_COUNT };
  const edited: unknown = doc.toJS(opts);
  // js-yaml first, where the loader's fast path would read the text (it then reads as `yaml` does: the fast-load
  // tests hold the loader to that): several times cheaper than `yaml`'s node tree, which was a third of a large fix.
  // Where it cannot say yes, `yaml` decides.
  const fast = readFast(text);
  if (fast !== undefined && isDeepStrictEqual(fast.value, edited)) return true;
  const docs = parseAllDocuments(text, { merge: true });
  if (!Array.isArray(docs) || docs.length !== 1 || docs[0].errors.length > 0) return false;
  return isDeepStrictEqual(docs[0].toJS(opts), edited);
}

function isJSON(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function visitNode(c: Ctx, node: unknown, inFlow: boolean, depth: number): void {
  if (isScalar(node)) {
    if (c.snap.scalars.has(node) && c.snap.scalars.get(node) !== node.value) {
      const [from, to] = rangeOf(node);
      c.splices.push({ start: from, end: to, text: scalarText(c, node, node.value, inFlow), depth });
    }
    return;
  }
  if (isMap(node) || isSeq(node)) visitCollection(c, node, depth);
}

function visitCollection(c: Ctx, coll: Collection, depth: number): void {
  const before = c.snap.items.get(coll);
  // Never on an edit's way (rememberParsed): as parsed.
  if (!before) return;
  const items: readonly unknown[] = coll.items;
  // A list item set in place (`seq.set(i, node)`): the new node stands where the old one stood.
  const replaced = new Map<unknown, unknown>();
  if (isSeq(coll)) {
    for (let i = 0; i < Math.min(before.length, items.length); i++) {
      if (before[i] !== items[i] && !items.includes(before[i]) && !before.includes(items[i])) {
        replaced.set(items[i], before[i]);
      }
    }
  }
  const asBefore = items.map((i) => replaced.get(i) ?? i);
  const stays = asBefore.filter((i) => before.includes(i));
  const added = items.filter((_, k) => !before.includes(asBefore[k]));
  const removed = before.filter((i) => !asBefore.includes(i));
  // Items that stay keep their order, and new ones come after them (as the Document API adds them).
  if (stays.some((item, i) => asBefore[i] !== item)) throw new Unsupported('reordered items');
  const flow = coll.flow === true;
  if (before.length > 0 && items.length === 0) {
    // Emptied: a flow collection keeps its brackets; a block one is written `{}` or `[]` by its parent.
    if (!flow) throw new Unsupported('an emptied block collection');
    const [open, close] = rangeOf(coll);
    c.splices.push({ start: open + 1, end: close - 1, text: '', depth });
    return;
  }
  stays.forEach((item, k) => {
    const now = items[k];
    if (isPair(now)) visitPair(c, coll, now, depth + 1);
    else if (now !== item || emptiedBlock(c, now)) replaceItem(c, coll as YAMLSeq, item, now, depth + 1);
    else visitNode(c, now, flow, depth + 1);
  });
  for (const item of removed) removeItem(c, coll, before, stays, item);
  if (added.length > 0) insertItems(c, coll, before, added, depth);
}

/** A block collection whose items all went: written `{}` or `[]` in its place. */
function emptiedBlock(c: Ctx, node: unknown): boolean {
  return (
    (isMap(node) || isSeq(node)) &&
    node.flow !== true &&
    node.items.length === 0 &&
    (c.snap.items.get(node)?.length ?? 0) > 0
  );
}

function visitPair(c: Ctx, map: Collection, pair: Pair, depth: number): void {
  const old = c.snap.values.get(pair);
  if (old === pair.value && !emptiedBlock(c, old)) {
    visitNode(c, pair.value, map.flow === true, depth);
    return;
  }
  replaceValue(c, map, pair, old, depth);
}

// --- positions ------------------------------------------------------------------------------------------------

function rangeOf(node: unknown): [number, number] {
  if (!isNode(node) || !node.range) throw new Unsupported('a node without a source range');
  return [node.range[0], node.range[1]];
}

/** Where an item's own text starts: its key for a pair. */
function itemStart(item: unknown): number {
  return rangeOf(isPair(item) ? item.key : item)[0];
}

/**
 * Where an item's content ended in the source: the end of its last scalar or flow collection (a block node's range
 * runs on to the next line), read from the parsed state, as the positions are the source's.
 */
function contentEnd(c: Ctx, item: unknown): number {
  if (isPair(item)) {
    const keyEnd = rangeOf(item.key)[1];
    const value = c.snap.values.has(item) ? c.snap.values.get(item) : item.value;
    return isNode(value) ? Math.max(keyEnd, contentEnd(c, value)) : keyEnd;
  }
  if (isCollection(item) && item.flow !== true) {
    const items = c.snap.items.get(item) ?? item.items;
    if (items.length > 0) return contentEnd(c, items[items.length - 1]);
  }
  return rangeOf(item)[1];
}

function lineStart(src: string, at: number): number {
  return src.lastIndexOf('\n', at - 1) + 1;
}

/**
 * The start of the line after the one holding `at` (or the document's end); `at` itself when it starts a line, as
 * a block scalar's range ends past its line break.
 */
function nextLine(c: Ctx, at: number): number {
  if (at > 0 && c.src[at - 1] === '\n') return at;
  const nl = c.src.indexOf('\n', at);
  return nl === -1 || nl >= c.docEnd ? c.docEnd : nl + 1;
}

/** Where the line holding `at` ends, before its line break. */
function lineEnd(c: Ctx, at: number): number {
  const nl = c.src.indexOf('\n', at);
  if (nl === -1 || nl >= c.docEnd) return c.docEnd;
  return c.src[nl - 1] === '\r' ? nl - 1 : nl;
}

function column(src: string, at: number): number {
  return at - lineStart(src, at);
}

// --- removal --------------------------------------------------------------------------------------------------

/** Where the dash of a block list item stands (only spaces between it and the item). */
function dashOf(c: Ctx, item: unknown): number {
  let k = rangeOf(item)[0] - 1;
  while (k >= 0 && (c.src[k] === ' ' || c.src[k] === '\t')) k--;
  if (c.src[k] !== '-') throw new Unsupported('a list item with properties before it');
  return k;
}

function removeItem(
  c: Ctx,
  coll: Collection,
  before: readonly unknown[],
  stays: readonly unknown[],
  item: unknown,
): void {
  const index = before.indexOf(item);
  const next = before.slice(index + 1).find((i) => stays.includes(i));
  if (coll.flow === true) {
    removeFlowItem(c, before, stays, item, next);
    return;
  }
  const start = isSeq(coll) ? dashOf(c, item) : itemStart(item);
  const from = lineStart(c.src, start);
  if (/^[ \t]*$/.test(c.src.slice(from, start))) {
    // Its whole lines; at the end of a text without a final line break, the line break before it.
    const end = nextLine(c, contentEnd(c, item));
    const atEnd = end === c.docEnd && c.src[end - 1] !== '\n';
    const begin = atEnd && from > 0 ? from - (c.src[from - 2] === '\r' ? 2 : 1) : from;
    c.splices.push({ start: begin, end, text: '', depth: 0 });
    return;
  }
  // The key follows `- ` on its line: the next key moves up behind the dash.
  if (isSeq(coll) || next === undefined) throw new Unsupported('the last key of a list item');
  c.splices.push({ start, end: itemStart(next), text: '', depth: 0 });
}

/** Where the comma after `at` stands (only spaces between), or undefined. */
function commaAfter(c: Ctx, at: number): number | undefined {
  let k = at;
  while (k < c.docEnd && (c.src[k] === ' ' || c.src[k] === '\t')) k++;
  return c.src[k] === ',' ? k : undefined;
}

/**
 * Removes a flow item and one comma, and nothing else: a comment on another line (or after an item that stays) is
 * never in the span. An item alone on its lines goes with its lines (its own trailing comment with it); an item
 * sharing a line goes with the comma after it, or, last, with the comma before it.
 */
function removeFlowItem(
  c: Ctx,
  before: readonly unknown[],
  stays: readonly unknown[],
  item: unknown,
  next: unknown,
): void {
  const index = before.indexOf(item);
  const prev = before
    .slice(0, index)
    .reverse()
    .find((i) => stays.includes(i));
  if (next === undefined && prev === undefined) throw new Unsupported('an emptied collection');
  const start = itemStart(item);
  const end = contentEnd(c, item);
  const comma = commaAfter(c, end);
  const afterItem = comma !== undefined ? comma + 1 : end;
  const rest = c.src.slice(afterItem, lineEnd(c, afterItem));
  const alone = /^[ \t]*$/.test(c.src.slice(lineStart(c.src, start), start)) && /^[ \t]*(#.*)?$/.test(rest);
  if (alone && (comma !== undefined || prev !== undefined)) {
    // Its own lines. Without a comma after it, it was the last: the comma after the item before it goes.
    c.splices.push({ start: lineStart(c.src, start), end: nextLine(c, afterItem), text: '', depth: 0 });
    if (comma === undefined && prev !== undefined) {
      const prevComma = commaAfter(c, contentEnd(c, prev));
      if (prevComma === undefined) throw new Unsupported('a flow item without its comma');
      c.splices.push({ start: prevComma, end: prevComma + 1, text: '', depth: 0 });
    }
    return;
  }
  if (comma !== undefined && next !== undefined) {
    // `b: 2, ` out of `a: 1, b: 2, c: 3`; the line break (and any comment) after the comma stays.
    let k = afterItem;
    while (k < c.docEnd && (c.src[k] === ' ' || c.src[k] === '\t')) k++;
    if (!c.src.slice(afterItem, itemStart(next)).includes('\n')) {
      c.splices.push({ start, end: k, text: '', depth: 0 });
      return;
    }
    // The next item is on another line: what follows the comma on this line (a comment) stays, with one space.
    let from = start;
    while (from > 0 && (c.src[from - 1] === ' ' || c.src[from - 1] === '\t')) from--;
    c.splices.push({ start: from, end: c.src[k] === '#' ? afterItem : k, text: '', depth: 0 });
    return;
  }
  if (prev === undefined) throw new Unsupported('a flow item without its comma');
  const prevEnd = contentEnd(c, prev);
  if (!c.src.slice(prevEnd, start).includes('\n')) {
    // `, c: 3` out of `a: 1, c: 3 }`.
    c.splices.push({ start: prevEnd, end: end, text: '', depth: 0 });
    return;
  }
  // The last item, on a line below the one before it: that one's comma and the item's own text go.
  const prevComma = commaAfter(c, prevEnd);
  if (prevComma === undefined) throw new Unsupported('a flow item without its comma');
  c.splices.push({ start: prevComma, end: prevComma + 1, text: '', depth: 0 });
  c.splices.push({ start, end: afterItem, text: '', depth: 0 });
}

// --- insertion ------------------------------------------------------------------------------------------------

function insertItems(c: Ctx, coll: Collection, before: readonly unknown[], added: readonly unknown[], depth: number) {
  if (coll.flow === true) insertFlow(c, coll, before, added, depth);
  else insertBlock(c, coll, before, added, depth);
}

function insertBlock(c: Ctx, coll: Collection, before: readonly unknown[], added: readonly unknown[], depth: number) {
  const last = before[before.length - 1];
  if (last === undefined) throw new Unsupported('an empty block collection');
  let col: number;
  let lines: string[];
  if (isMap(coll)) {
    // A key alone on its line shows the map's column (the first may follow `- &anchor `).
    const alone = before.find((p) => /^[ \t]*$/.test(c.src.slice(lineStart(c.src, itemStart(p)), itemStart(p))));
    col = column(c.src, itemStart(alone ?? before[0]));
    const indentSeq = siblingSeqStyle(c, coll) ?? c.indentSeq;
    lines = added.flatMap((pair) => blockLines(c, [pair as Pair], indentSeq));
  } else {
    // A sequence's range starts at its first dash.
    col = column(c.src, rangeOf(coll)[0]);
    lines = blockLines(c, added, c.indentSeq);
  }
  const pad = ' '.repeat(col);
  const at = nextLine(c, contentEnd(c, last));
  const body = lines.map((l) => pad + l);
  const text = c.src[at - 1] === '\n' ? body.map((l) => l + c.eol).join('') : c.eol + body.join(c.eol);
  c.splices.push({ start: at, end: at, text, depth });
}

/**
 * Whether the map's own block sequences sit indented under their key (`key:\n  - a`), by majority; undefined when
 * it has none or as many of each (the document's majority then decides).
 */
function siblingSeqStyle(c: Ctx, map: YAMLMap): boolean | undefined {
  let votes = 0;
  for (const pair of map.items) {
    if (!isSeq(pair.value) || pair.value.flow === true || !pair.value.range || !isNode(pair.key)) continue;
    if (c.snap.values.get(pair) !== pair.value) continue;
    votes += column(c.src, pair.value.range[0]) > column(c.src, rangeOf(pair.key)[0]) ? 1 : -1;
  }
  return votes === 0 ? undefined : votes > 0;
}

/** Block YAML for new pairs (`[pair]`) or new list items, unindented, one string per line. */
function blockLines(c: Ctx, items: readonly unknown[], indentSeq: boolean): string[] {
  const value = isPair(items[0])
    ? Object.fromEntries((items as Pair[]).map((p) => [keyOf(p), jsOf(c, p.value)]))
    : items.map((i) => jsOf(c, i));
  const text = new Document(value).toString({
    indent: c.indent,
    indentSeq,
    lineWidth: 0,
    minContentWidth: 0,
    flowCollectionPadding: c.padded,
  });
  return text.replace(/\n$/, '').split('\n');
}

function keyOf(pair: Pair): string | number {
  const key = isScalar(pair.key) ? pair.key.value : pair.key;
  if (typeof key !== 'string' && typeof key !== 'number') throw new Unsupported('a complex key');
  return key;
}

function jsOf(c: Ctx, node: unknown): unknown {
  return isNode(node) ? node.toJS(c.doc, { maxAliasCount: MAX_ALIAS_COUNT }) : node;
}

function insertFlow(c: Ctx, coll: Collection, before: readonly unknown[], added: readonly unknown[], depth: number) {
  const [open, close] = rangeOf(coll);
  const last = before[before.length - 1];
  if (last === undefined) {
    // `{}`: the new items fill it, in multi-line JSON on lines of their own one step in.
    const inner = c.src.slice(open + 1, close - 1);
    if (!/^[ \t]*$/.test(inner)) throw new Unsupported('an empty flow collection with comments or lines');
    if (c.jsonLines) {
      const lead = /^[ \t]*/.exec(c.src.slice(lineStart(c.src, open), open))?.[0] ?? '';
      const col = lead.length + c.jsonStep;
      const texts = added.map((i) => c.eol + ' '.repeat(col) + flowItemText(c, i, col));
      c.splices.push({ start: open + 1, end: close - 1, text: texts.join(',') + c.eol + lead, depth });
      return;
    }
    const pad = c.padded && !c.json ? ' ' : '';
    const texts = added.map((i) => flowItemText(c, i, undefined));
    c.splices.push({
      start: open + 1,
      end: close - 1,
      text: pad + texts.join(c.json && !c.jsonSpaced ? ',' : ', ') + pad,
      depth,
    });
    return;
  }
  const first = itemStart(before[0]);
  const multiline = c.src.slice(open, first).includes('\n');
  const lastStart = itemStart(last);
  const col = column(c.src, lastStart);
  const lead = c.src.slice(lineStart(c.src, lastStart), lastStart);
  const indent = /^[ \t]*$/.test(lead) ? lead : ' '.repeat(col);
  const sep = multiline ? `,${c.eol}${indent}` : c.json && !c.jsonSpaced ? ',' : ', ';
  const text = added.map((i) => sep + flowItemText(c, i, multiline ? col : undefined)).join('');
  const at = contentEnd(c, last);
  const end = lineEnd(c, at);
  const comma = c.json ? undefined : commaAfter(c, at);
  if (comma !== undefined) {
    // A trailing comma (`a: 1,` before the closing bracket): new items follow it, each with its own comma, on
    // lines of their own after the line's comment when items sit on lines.
    const own = multiline && /^[ \t]*(#.*)?$/.test(c.src.slice(comma + 1, end));
    const items = added.map((i) => flowItemText(c, i, own ? col : undefined));
    c.splices.push(
      own
        ? { start: end, end, text: items.map((t) => `${c.eol}${indent}${t},`).join(''), depth }
        : { start: comma + 1, end: comma + 1, text: items.map((t) => ` ${t},`).join(''), depth },
    );
    return;
  }
  if (multiline && c.src.slice(at, end).includes('#')) {
    // A comment after the last item stays on its line: the comma goes before it, the new items after it.
    c.splices.push({ start: at, end: at, text: ',', depth });
    c.splices.push({ start: end, end, text: text.slice(1), depth });
    return;
  }
  c.splices.push({ start: at, end: at, text, depth });
}

/** A new flow item: `key: value` or a list item, JSON in a JSON document; `col` when items sit on lines. */
function flowItemText(c: Ctx, item: unknown, col: number | undefined): string {
  if (c.json) {
    const value = jsonText(c, jsOf(c, isPair(item) ? item.value : item), col);
    if (!isPair(item)) return value;
    return `${JSON.stringify(String(keyOf(item)))}:${c.jsonSpaced || col !== undefined ? ' ' : ''}${value}`;
  }
  return isPair(item)
    ? stripFlow(c, new Document({ [keyOf(item)]: jsOf(c, item.value) }))
    : stripFlow(c, new Document([jsOf(c, item)]));
}

/** JSON text for a value: indented on lines under `col` in multi-line JSON, else on one line. */
function jsonText(c: Ctx, value: unknown, col: number | undefined): string {
  if (col !== undefined) return JSON.stringify(value, null, c.jsonStep).replace(/\n/g, c.eol + ' '.repeat(col));
  return c.jsonSpaced ? spacedJSON(value) : JSON.stringify(value);
}

/** One-line JSON with a space after `:` and `,`, as some writers print it. */
function spacedJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJSON).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${spacedJSON(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** A flow collection of one item written on one line, without its brackets: the item as flow text. */
function stripFlow(c: Ctx, doc: Document): string {
  const text = doc
    .toString({ collectionStyle: 'flow', lineWidth: 0, flowCollectionPadding: c.padded })
    .trim()
    .slice(1, -1);
  return c.padded ? text.trim() : text;
}

// --- replacement ----------------------------------------------------------------------------------------------

/** A scalar in the style of the one it replaces (quoting kept where the value allows it). */
function scalarText(c: Ctx, old: unknown, value: unknown, inFlow: boolean): string {
  // A block scalar's range runs over its line break: not a span to write a plain scalar into.
  if (isScalar(old) && (old.type === 'BLOCK_LITERAL' || old.type === 'BLOCK_FOLDED')) {
    throw new Unsupported('a block scalar replaced');
  }
  if (c.json) return JSON.stringify(value);
  const node = new Scalar(value);
  if (
    isScalar(old) &&
    typeof value === 'string' &&
    typeof old.value === 'string' &&
    (old.type === 'PLAIN' || old.type === 'QUOTE_DOUBLE' || old.type === 'QUOTE_SINGLE')
  ) {
    node.type = old.type;
  }
  if (inFlow) return stripFlow(c, new Document([node]));
  const text = new Document(node).toString({ lineWidth: 0 }).replace(/\n$/, '');
  if (text.includes('\n')) throw new Unsupported('a scalar over several lines');
  return text;
}

function replaceValue(c: Ctx, map: Collection, pair: Pair, old: unknown, depth: number): void {
  const value = pair.value;
  const isEmptyCollection = isCollection(value) && value.items.length === 0;
  const [from, to] = rangeOf(old);
  if (map.flow === true) {
    const text = isScalar(value)
      ? scalarText(c, old, value.value, true)
      : c.json
        ? jsonText(c, jsOf(c, value), multilineCol(c, map, pair))
        : stripFlow(c, new Document([jsOf(c, value)]));
    c.splices.push({ start: from, end: to, text, depth });
    return;
  }
  if (isCollection(old) && old.flow !== true) {
    // From the key's colon to the end of the old block.
    const keyEnd = rangeOf(pair.key)[1];
    const colon = c.src.indexOf(':', keyEnd);
    if (colon < 0 || !/^[ \t]*$/.test(c.src.slice(keyEnd, colon))) throw new Unsupported('a key without its colon');
    const col = column(c.src, itemStart(pair));
    const text =
      inlineText(c, value) ??
      blockLines(c, [pair], siblingSeqStyle(c, map as YAMLMap) ?? c.indentSeq)
        .slice(1)
        .map((l) => c.eol + ' '.repeat(col) + l)
        .join('');
    replaceBlock(c, colon + 1, old, text, depth);
    return;
  }
  if (isScalar(value) || isEmptyCollection) {
    const text = isScalar(value)
      ? scalarText(c, old, value.value, false)
      : stripFlow(c, new Document([jsOf(c, value)]));
    c.splices.push({ start: from, end: to, text: from === to ? ` ${text}` : text, depth });
    return;
  }
  // A scalar (often null) gives way to a block collection: the old text goes, the block follows the key's line.
  let begin = from;
  while (begin > 0 && (c.src[begin - 1] === ' ' || c.src[begin - 1] === '\t')) begin--;
  if (c.src[begin - 1] !== ':') throw new Unsupported('a value not right after its key');
  const col = column(c.src, itemStart(pair));
  const lines = blockLines(c, [pair], siblingSeqStyle(c, map as YAMLMap) ?? c.indentSeq).slice(1);
  const at = lineEnd(c, to);
  if (begin !== to) c.splices.push({ start: begin, end: to, text: '', depth });
  c.splices.push({ start: at, end: at, text: lines.map((l) => c.eol + ' '.repeat(col) + l).join(''), depth });
}

/** ` windows` or ` {}` for a scalar or an empty collection written after a key or a dash; else undefined. */
function inlineText(c: Ctx, value: unknown): string | undefined {
  if (isScalar(value)) return ` ${scalarText(c, undefined, value.value, false)}`;
  if (isCollection(value) && value.items.length === 0) return ` ${stripFlow(c, new Document([jsOf(c, value)]))}`;
  return undefined;
}

/**
 * Writes `text` over a block collection, from `start` (after its key's colon or its item's dash) to the end of its
 * content: nothing but line breaks and indentation may stand between `start` and the collection.
 */
function replaceBlock(c: Ctx, start: number, old: Collection, text: string, depth: number): void {
  if (!/^\s*$/.test(c.src.slice(start, rangeOf(old)[0]))) throw new Unsupported('a comment before the value');
  let end = contentEnd(c, old);
  // A block scalar at the end runs over its line break, which stays.
  while (end > start && (c.src[end - 1] === '\n' || c.src[end - 1] === '\r')) end--;
  c.splices.push({ start, end, text, depth });
}

/** A list item set anew (or a block collection item emptied), written where the old one stood. */
function replaceItem(c: Ctx, seq: YAMLSeq, old: unknown, now: unknown, depth: number): void {
  if (seq.flow === true) {
    const [from, to] = rangeOf(old);
    const col = c.src.slice(rangeOf(seq)[0], from).includes('\n') ? column(c.src, from) : undefined;
    const text = isScalar(now)
      ? scalarText(c, old, now.value, true)
      : c.json
        ? jsonText(c, jsOf(c, now), col)
        : stripFlow(c, new Document([jsOf(c, now)]));
    c.splices.push({ start: from, end: to, text, depth });
    return;
  }
  const dash = dashOf(c, old);
  if (isCollection(old) && old.flow !== true) {
    // `- a: 1` / `  b: 2`: the first line after the dash, the others under the dash's column.
    const [first, ...rest] = blockLines(c, [jsOf(c, now)], c.indentSeq);
    const text =
      inlineText(c, now) ??
      ` ${first.replace(/^- ?/, '')}${rest.map((l) => c.eol + ' '.repeat(column(c.src, dash)) + l).join('')}`;
    replaceBlock(c, dash + 1, old, text, depth);
    return;
  }
  // A scalar or flow item: its own range, and a new item fitting on it.
  if (isScalar(old) && (old.type === 'BLOCK_LITERAL' || old.type === 'BLOCK_FOLDED')) {
    throw new Unsupported('a block scalar replaced');
  }
  const text = inlineText(c, now);
  if (text === undefined) throw new Unsupported('a block collection for an inline item');
  const [from, to] = rangeOf(old);
  c.splices.push({
    start: from,
    end: to,
    text: isScalar(now) ? scalarText(c, old, now.value, false) : text.slice(1),
    depth,
  });
}

/** The column of a pair's key when its flow map puts items on lines (multi-line JSON), else undefined. */
function multilineCol(c: Ctx, map: Collection, pair: Pair): number | undefined {
  const open = rangeOf(map)[0];
  const start = itemStart(pair);
  return c.src.slice(open, start).includes('\n') ? column(c.src, start) : undefined;
}

// --- output ---------------------------------------------------------------------------------------------------

/** `src.slice(start, end)` with the splices made; overlapping deletions merge, any other overlap is refused. */
export function applySplices(src: string, start: number, end: number, splices: readonly Splice[]): string {
  const sorted = [...splices].sort(
    (a, b) => a.start - b.start || a.end - b.end || (a.start === a.end && b.start === b.end ? b.depth - a.depth : 0),
  );
  let out = '';
  let at = start;
  for (const s of sorted) {
    if (s.start < start || s.end > end) throw new Unsupported('a splice outside its document');
    if (s.start < at) {
      if (s.text !== '' || s.start === s.end) throw new Unsupported('overlapping splices');
      at = Math.max(at, s.end);
      continue;
    }
    out += src.slice(at, s.start) + s.text;
    at = s.end;
  }
  return out + src.slice(at, end);
}
