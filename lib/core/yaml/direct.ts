/**
 * The edits of one plain block-style document written straight into its text, without the `yaml` node tree: for a
 * document made only of `key: value` lines, `key:` lines over blocks and `- ` items (no comments, anchors, aliases,
 * tags, flow collections, block or multi-line scalars, tabs or CRLF), its structure is read from its lines and
 * checked against what js-yaml read of it, and the edits are made as splice.ts makes them from the node tree: at
 * the same places, in the same style, with the same text. Parsing each edited document with `yaml` was half of a
 * large fix's time. Anything else (a shape the lines do not place plainly, an edit that would be refused, a
 * difference splice.ts would not splice, a result that does not read back) returns undefined: the node-tree path
 * then makes the edits, as before (test/core/fix/direct.property.test.ts holds the two to the same output).
 */
import { Document } from 'yaml';
import type { FixEdit } from '../model/fixes';
import { parsePath, readFast } from './loader';
import { isDeepStrictEqual } from 'node:util';
import { applySplices, paddedFlow, StyleVotes, Unsupported, type Splice } from './splice';
import { operationOf, type Operations } from './operations';

type Segment = string | number;

interface LScalar {
  readonly kind: 'scalar';
  /** Where its line's content ends. */
  readonly last: number;
}

interface LPair {
  readonly key: string;
  readonly keyStart: number;
  /** Only spaces stand before the key on its line (not `- key:`). */
  readonly alone: boolean;
  readonly value: LNode;
  readonly last: number;
}

interface LMap {
  readonly kind: 'map';
  readonly pairs: LPair[];
  readonly last: number;
  /** Keys added by the edits, in order. */
  added?: string[];
  removed?: Set<string>;
}

interface LSeq {
  readonly kind: 'seq';
  /** Where its first dash stands. */
  readonly dash: number;
  readonly items: LNode[];
  readonly last: number;
  appended?: number;
}

type LNode = LScalar | LMap | LSeq;

interface Line {
  /** Offset of the content (after the indentation, and after `- ` for an item line). */
  readonly pos: number;
  readonly indent: number;
  /** An item line (`- …`): `pos`/`indent` are then of what follows the dash. */
  readonly dash: boolean;
  /** Offset of the dash of an item line. */
  readonly dashAt: number;
  readonly end: number;
  readonly key?: string;
  /** Where the value starts after `key: `, or -1 for `key:` alone; for a scalar item line, `pos`. */
  readonly valueAt: number;
}

class NotPlain extends Error {}

/** What may not start a plain scalar the lines can place (indicators; `-` only before white space; quotes apart). */
const SCALAR_START = /^(?:[[\]{}&*!|>%@`?#,:<=~]|-(?:\s|$))/;

function scalarOk(text: string): boolean {
  if (text.startsWith('"')) return /^"[^"\\]*"$/.test(text);
  if (text.startsWith("'")) return /^'[^']*'$/.test(text);
  if (SCALAR_START.test(text) || text.endsWith(' ') || text.endsWith(':')) return false;
  return !text.includes(': ') && !text.includes(' #');
}

/** A key's first character: `[A-Za-z0-9_$]`. */
function keyStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x24;
}

/** A key's other characters: `[A-Za-z0-9_./$-]`. */
function keyPart(c: number): boolean {
  return keyStart(c) || c === 0x2e || c === 0x2f || c === 0x2d;
}

/**
 * The lines of a document, or NotPlain. A key line is `key:` or `key: value` (the key `[A-Za-z0-9_$][A-Za-z0-9_./$-]*`,
 * the value a scalar scalarOk allows); an item line `- ` and a key line or a scalar; nothing else is placed. Read by
 * character codes: a regular expression per line was a tenth of a large fix.
 */
function linesOf(src: string): Line[] {
  const out: Line[] = [];
  let pos = 0;
  let first = true;
  while (pos < src.length) {
    const nl = src.indexOf('\n', pos);
    const end = nl < 0 ? src.length : nl;
    let i = pos;
    while (i < end && src.charCodeAt(i) === 0x20) i++;
    if (i === end) {
      pos = end + 1;
      continue;
    }
    if (first && i === pos && end === pos + 3 && src.startsWith('---', pos)) {
      first = false;
      pos = end + 1;
      continue;
    }
    first = false;
    let dash = false;
    const dashAt = i;
    if (src.charCodeAt(i) === 0x2d && src.charCodeAt(i + 1) === 0x20) {
      dash = true;
      i += 2;
      if (src.charCodeAt(i) === 0x20) throw new NotPlain();
    }
    let k = i;
    if (k < end && keyStart(src.charCodeAt(k))) {
      k++;
      while (k < end && keyPart(src.charCodeAt(k))) k++;
    }
    if (k > i && src.charCodeAt(k) === 0x3a && (k + 1 === end || src.charCodeAt(k + 1) === 0x20)) {
      // `key:` over a block, or `key: value`.
      let valueAt = -1;
      if (k + 1 < end) {
        valueAt = k + 1;
        while (valueAt < end && src.charCodeAt(valueAt) === 0x20) valueAt++;
        // Spaces to the end of the line, or before other white space: not placed (nor by the regular expression
        // this replaces).
        if (valueAt === end || /\s/.test(src[valueAt]) || !scalarOk(src.slice(valueAt, end))) throw new NotPlain();
      }
      out.push({ pos: i, indent: i - pos, dash, dashAt, end, key: src.slice(i, k), valueAt });
    } else {
      if (!dash || !scalarOk(src.slice(i, end))) throw new NotPlain();
      out.push({ pos: i, indent: i - pos, dash, dashAt, end, valueAt: i });
    }
    pos = end + 1;
  }
  return out;
}

/** Reads a block structure from lines; every line must be placed. */
class Reader {
  i = 0;
  constructor(private readonly lines: readonly Line[]) {}

  /** A map whose first key is on line `this.i` at column `col`. */
  map(col: number): LMap {
    const pairs: LPair[] = [];
    let first = true;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (!first) {
        // A shallower line, or a dash at the map's column (a list the parent goes on with), ends the map.
        const lc = lineCol(line);
        if (lc < col || (lc === col && line.dash)) break;
      }
      if (line.indent !== col || line.key === undefined) throw new NotPlain();
      first = false;
      this.i++;
      const keyStart = line.pos;
      const alone = !line.dash;
      let value: LNode;
      if (line.valueAt >= 0) {
        value = { kind: 'scalar', last: line.end };
        const next = this.lines[this.i];
        if (next !== undefined && lineCol(next) > col) throw new NotPlain();
      } else {
        const next = this.lines[this.i];
        if (next === undefined) throw new NotPlain();
        const nextCol = lineCol(next);
        if (next.dash && nextCol >= col) value = this.seq(nextCol);
        else if (!next.dash && nextCol > col) value = this.map(nextCol);
        else throw new NotPlain();
      }
      pairs.push({ key: line.key, keyStart, alone, value, last: value.last });
    }
    return { kind: 'map', pairs, last: pairs[pairs.length - 1].last };
  }

  /** A block sequence whose dashes stand at column `col`. */
  seq(col: number): LSeq {
    const items: LNode[] = [];
    let dash = -1;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (!line.dash || lineCol(line) !== col) {
        if (lineCol(line) > col) throw new NotPlain();
        break;
      }
      if (dash < 0) dash = line.dashAt;
      if (line.key !== undefined) {
        items.push(this.map(line.indent));
      } else {
        this.i++;
        items.push({ kind: 'scalar', last: line.end });
        const next = this.lines[this.i];
        if (next !== undefined && lineCol(next) > col) throw new NotPlain();
      }
    }
    return { kind: 'seq', dash, items, last: items[items.length - 1].last };
  }
}

/** The column a line starts at: its dash's for an item line. */
function lineCol(line: Line): number {
  return line.dash ? line.indent - 2 : line.indent;
}

/** Whether the structure read from the lines is the value js-yaml read. */
function agrees(node: LNode, value: unknown): boolean {
  switch (node.kind) {
    case 'scalar':
      return value === null || typeof value !== 'object';
    case 'map': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      const v = value as Record<string, unknown>;
      if (Object.keys(v).length !== node.pairs.length) return false;
      return node.pairs.every((p) => Object.hasOwn(v, p.key) && agrees(p.value, v[p.key]));
    }
    case 'seq':
      return (
        Array.isArray(value) && value.length === node.items.length && node.items.every((n, k) => agrees(n, value[k]))
      );
    default: {
      const unknownNode: never = node;
      throw new Error(`unknown node ${JSON.stringify(unknownNode)}`);
    }
  }
}

function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What one edit did: the value it replaced or removed (as the node-tree path says it). */
export interface DirectResult {
  readonly previous?: unknown;
}

export interface DirectStyle {
  readonly indent: number;
  readonly indentSeq: boolean;
  /** Flow collections written `{ a: 1 }` (a List item's: the whole List's); else read from the text. */
  readonly padded?: boolean;
}

/**
 * The edits made on the document `src` (one object, js-yaml's `value` of it): each edit's result and the new text;
 * or undefined where the node-tree path must make them.
 */
export function directEdits(
  src: string,
  value: unknown,
  edits: readonly FixEdit[],
  /** The document's style; undefined: read from its lines (a document read without `prefix`). */
  style: DirectStyle | undefined,
  /**
   * The `items:` line a List item's text is read under (its edits then say the item's paths): the item is read as
   * the List of that one item, as the node-tree path parses it, and only its own text is given back.
   */
  prefix = '',
): { readonly results: readonly DirectResult[]; readonly text: string; readonly value: unknown } | undefined {
  if (!isPlainMap(value) || (style === undefined && prefix !== '') || /[\t\r\u2028\u2029]|(?:^|\s)#/.test(src))
    return undefined;
  const full = prefix + src;
  const whole: unknown = prefix === '' ? value : { items: [value] };
  const root = readLines(full);
  if (root === undefined || !agrees(root, whole)) return undefined;
  const base: Segment[] = prefix === '' ? [] : ['items', 0];
  const paths = edits.map((e) => [...base, ...parsePath(e.path)]);
  // Every edit checked first on the document as read, as fixPass checks them: one that would be refused is the
  // node tree's to say.
  for (let k = 0; k < edits.length; k++) if (check(whole, paths[k], edits[k]) === undefined) return undefined;
  // The edited value, copied along the edited paths only.
  const box = { root: whole };
  const results: DirectResult[] = [];
  for (let k = 0; k < edits.length; k++) {
    const r = apply(box, root, paths[k], edits[k]);
    if (r === undefined) return undefined;
    results.push(r);
  }
  const text = render(full, prefix.length, root, box.root, style);
  if (text === undefined) return undefined;
  // The result must read back as the edited value. Its lines are read again by the reader that read the input (held
  // to js-yaml's reading of it above), and must hold the edited value's maps, lists and keys; the scalars on them are
  // the input's, byte for byte, or the written blocks', each of which js-yaml read back as its value (blockLines).
  // Reading every edited document again with js-yaml cost a tenth of a large fix.
  const back = readLines(prefix + text);
  return back !== undefined && agrees(back, box.root) ? { results, text, value: box.root } : undefined;
}

/** The block structure of a plain document's lines (every line placed), or undefined. */
function readLines(text: string): LMap | undefined {
  try {
    const lines = linesOf(text);
    if (lines.length === 0 || lines[0].dash || lines[0].indent !== 0) return undefined;
    const reader = new Reader(lines);
    const root = reader.map(0);
    return reader.i === lines.length ? root : undefined;
  } catch (e) {
    if (e instanceof NotPlain) return undefined;
    throw e;
  }
}

/**
 * `isDeepStrictEqual` for what js-yaml's core schema reads (plain objects, arrays, scalars), a few times faster; any
 * other object is left to it.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let k = 0; k < a.length; k++) if (!sameValue(a[k], b[k])) return false;
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) {
    return isDeepStrictEqual(a, b);
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) if (!Object.hasOwn(y, key) || !sameValue(x[key], y[key])) return false;
  return true;
}

interface Reached {
  /** Segments that exist (the rest is created). */
  readonly depth: number;
  readonly node: unknown;
  readonly parent: unknown;
}

/** `walk` of document.ts on a plain value of a document without anchors: undefined where it would refuse. */
function walkValue(root: unknown, segments: readonly Segment[]): Reached | undefined {
  let node: unknown = root;
  let parent: unknown = undefined;
  for (let i = 0; i < segments.length; i++) {
    // A null on the way is replaced by a nested value: a replacement the lines path does not write.
    if (node === null) return undefined;
    if (node === undefined) return { depth: i, node, parent };
    const seg = segments[i];
    parent = node;
    if (isPlainMap(node) && typeof seg === 'string') node = Object.hasOwn(node, seg) ? node[seg] : undefined;
    else if (Array.isArray(node) && typeof seg === 'number') node = node[seg];
    else return undefined;
  }
  return { depth: segments.length, node, parent };
}

/** `checkEdit` where it allows the edit and the lines path writes it: true; else undefined. */
function check(root: unknown, segments: readonly Segment[], edit: FixEdit): true | undefined {
  const reached = walkValue(root, segments);
  if (reached === undefined || segments.length === 0) return undefined;
  const operation = operationOf(LINES, edit);
  if (operation === undefined) throw new Error(`unknown edit ${JSON.stringify(edit)}`);
  return operation.check({ segments, reached }, edit);
}

/** `nested` of document.ts. */
function nested(segments: readonly Segment[], value: unknown): unknown {
  let out = value;
  for (let i = segments.length - 1; i >= 0; i--) {
    const seg = segments[i];
    out = typeof seg === 'number' ? [out] : { [seg]: out };
  }
  return out;
}

/** The value at `segments` copied along the way (the loader's objects are never changed): its parent copy. */
function copyTo(box: { root: unknown }, segments: readonly Segment[]): unknown {
  const copy = (v: unknown): unknown => (Array.isArray(v) ? [...v] : isPlainMap(v) ? { ...v } : v);
  box.root = copy(box.root);
  let node = box.root as Record<string | number, unknown>;
  for (const seg of segments) {
    const next = copy(node[seg]);
    node[seg] = next;
    node = next as Record<string | number, unknown>;
  }
  return node;
}

/** The original node of the lines at `segments`, or undefined where the path leaves them (into something added). */
function treeAt(root: LMap, segments: readonly Segment[]): LNode | undefined {
  let node: LNode | undefined = root;
  for (const seg of segments) {
    if (node === undefined) return undefined;
    if (node.kind === 'map' && typeof seg === 'string') {
      if (node.removed?.has(seg) === true) return undefined;
      node = node.pairs.find((p) => p.key === seg)?.value;
    } else if (node.kind === 'seq' && typeof seg === 'number') node = node.items[seg];
    else return undefined;
  }
  return node;
}

/**
 * A new pair on the deepest map there is (`depth` segments of the path exist), its key the first missing segment and
 * its value `value` under the rest of the path.
 */
function newPair(
  box: { root: unknown },
  tree: LMap,
  segments: readonly Segment[],
  depth: number,
  value: unknown,
): DirectResult | undefined {
  const at = depth === segments.length ? segments.length - 1 : depth - 1;
  if (at < 0) return undefined;
  const mapPath = segments.slice(0, at);
  const key = segments[at];
  if (typeof key !== 'string') return undefined;
  const parent = copyTo(box, mapPath);
  if (!isPlainMap(parent)) return undefined;
  parent[key] = nested(segments.slice(at + 1), value);
  return addKey(tree, mapPath, key) ? {} : undefined;
}

function apply(
  box: { root: unknown },
  tree: LMap,
  segments: readonly Segment[],
  edit: FixEdit,
): DirectResult | undefined {
  const reached = walkValue(box.root, segments);
  if (reached === undefined || check(box.root, segments, edit) === undefined) return undefined;
  return operationOf(LINES, edit)?.apply({ box, tree, segments, reached }, edit);
}

/**
 * The lines strategy: every operation made on the value (copied along the edited path) and on the lines' structure,
 * which `render` then writes. What it cannot write as the node tree would (an existing value replaced, a null on the
 * way) it leaves to the node-tree strategy (document.ts): `check` says no.
 */
const LINES: Operations<{
  readonly checkAt: { readonly segments: readonly Segment[]; readonly reached: Reached };
  readonly applyAt: {
    readonly box: { root: unknown };
    readonly tree: LMap;
    readonly segments: readonly Segment[];
    readonly reached: Reached;
  };
  readonly checked: true | undefined;
  /** What the edit did; undefined where the lines cannot say it after all (the node tree then makes every edit). */
  readonly applied: DirectResult | undefined;
}> = {
  set: {
    check({ segments, reached }, edit) {
      const exists = reached.depth === segments.length;
      // An existing value replaced (unless with itself) is the node tree's to write.
      return !exists || reached.node === undefined || reached.node === edit.value ? true : undefined;
    },
    apply({ box, tree, segments, reached }, edit) {
      if (reached.depth === segments.length && reached.node !== undefined) return { previous: reached.node };
      return newPair(box, tree, segments, reached.depth, edit.value);
    },
  },
  remove: {
    check({ segments, reached }) {
      const exists = reached.depth === segments.length;
      return exists && reached.node !== undefined ? true : undefined;
    },
    apply({ box, tree, segments, reached }) {
      const previous = reached.node;
      const parentPath = segments.slice(0, -1);
      const key = segments[segments.length - 1];
      if (typeof key !== 'string') return undefined;
      const parent = copyTo(box, parentPath);
      if (!isPlainMap(parent)) return undefined;
      delete parent[key];
      if (!removeKey(tree, parentPath, key)) return undefined;
      // `securityContext: {}` means the same as no securityContext: the empty shell goes too (applyEdit).
      if (parentPath[parentPath.length - 1] === 'securityContext' && Object.keys(parent).length === 0) {
        const outer = copyTo(box, parentPath.slice(0, -1));
        if (!isPlainMap(outer)) return undefined;
        delete outer.securityContext;
        if (!removeKey(tree, parentPath.slice(0, -1), 'securityContext')) return undefined;
      }
      return { previous };
    },
  },
  append: {
    check({ segments, reached }) {
      const exists = reached.depth === segments.length;
      return !exists || reached.node === undefined || Array.isArray(reached.node) ? true : undefined;
    },
    apply({ box, tree, segments, reached }, edit) {
      if (reached.depth === segments.length && Array.isArray(reached.node)) {
        const seq = copyTo(box, segments) as unknown[];
        seq.push(edit.value);
        const node = treeAt(tree, segments);
        if (node !== undefined) {
          if (node.kind !== 'seq') return undefined;
          node.appended = (node.appended ?? 0) + 1;
        } else if (!insideAdded(tree, segments)) return undefined;
        return {};
      }
      return newPair(box, tree, segments, reached.depth, [edit.value]);
    },
  },
};

/** Whether the path runs into a pair or item the edits added (its text is written whole from the final value). */
function insideAdded(tree: LMap, segments: readonly Segment[]): boolean {
  let node: LNode | undefined = tree;
  for (const seg of segments) {
    if (node === undefined) return false;
    if (node.kind === 'map' && typeof seg === 'string') {
      if (node.added?.includes(seg) === true) return true;
      node = node.pairs.find((p) => p.key === seg)?.value;
    } else if (node.kind === 'seq' && typeof seg === 'number') {
      if (seg >= node.items.length) return true;
      node = node.items[seg];
    } else return false;
  }
  return false;
}

/** Marks a key added to a map of the lines (or inside something added): false where neither. */
function addKey(tree: LMap, mapPath: readonly Segment[], key: string): boolean {
  const node = treeAt(tree, mapPath);
  if (node === undefined) return insideAdded(tree, mapPath);
  if (node.kind !== 'map') return false;
  (node.added ??= []).push(key);
  return true;
}

/** Marks a pair of the lines removed: false where it is not one (something added: left to the node tree). */
function removeKey(tree: LMap, mapPath: readonly Segment[], key: string): boolean {
  const node = treeAt(tree, mapPath);
  if (node === undefined || node.kind !== 'map' || node.added?.includes(key) === true) return false;
  if (!node.pairs.some((p) => p.key === key)) return false;
  (node.removed ??= new Set()).add(key);
  return true;
}

// --- output: splice.ts's splices, from the lines -----------------------------------------------------------------

interface Out {
  readonly src: string;
  readonly eol: string;
  /** The document's style, read when a first block is written (most edits of a run write the same few). */
  readonly look: () => Required<Omit<DirectStyle, 'padded'>> & { readonly padded: boolean };
  readonly splices: Splice[];
}

function lineStart(src: string, at: number): number {
  return src.lastIndexOf('\n', at - 1) + 1;
}

function nextLine(src: string, at: number): number {
  if (at > 0 && src[at - 1] === '\n') return at;
  const nl = src.indexOf('\n', at);
  return nl === -1 ? src.length : nl + 1;
}

/** The text from `from` on with the edits spliced in; undefined where splice.ts would not splice them. */
function render(
  src: string,
  from: number,
  root: LMap,
  value: unknown,
  style: DirectStyle | undefined,
): string | undefined {
  let look: ReturnType<Out['look']> | undefined;
  const o: Out = {
    src,
    eol: '\n',
    look: () => {
      if (look !== undefined) return look;
      const own: DirectStyle = style ?? linesStyle(src, root);
      return (look = {
        indent: own.indent,
        indentSeq: own.indentSeq,
        padded: own.padded ?? paddedFlow(src.slice(from)),
      });
    },
    splices: [],
  };
  try {
    visit(o, root, value, 0);
    return applySplices(src, from, src.length, o.splices);
  } catch (e) {
    if (e instanceof NotPlain || e instanceof Unsupported) return undefined;
    throw e;
  }
}

function visit(o: Out, node: LNode, value: unknown, depth: number): void {
  if (node.kind === 'scalar') return;
  if (node.kind === 'seq') {
    const items = value as unknown[];
    node.items.forEach((item, k) => visit(o, item, items[k], depth + 1));
    const added = node.appended ?? 0;
    if (added > 0) {
      const lines = blockLines(o, items.slice(items.length - added), o.look().indentSeq);
      insert(o, node.dash - lineStart(o.src, node.dash), node.last, lines, depth);
    }
    return;
  }
  const map = value as Record<string, unknown>;
  const stays = node.pairs.filter((p) => node.removed?.has(p.key) !== true);
  // An emptied block mapping is re-rendered by splice.ts: the node tree's.
  if (stays.length === 0 && (node.added?.length ?? 0) === 0) throw new NotPlain();
  for (const p of stays) visit(o, p.value, map[p.key], depth + 1);
  for (const p of node.pairs) {
    if (node.removed?.has(p.key) !== true) continue;
    const from = lineStart(o.src, p.keyStart);
    if (p.alone) {
      const end = nextLine(o.src, p.last);
      const atEnd = end === o.src.length && o.src[end - 1] !== '\n';
      o.splices.push({ start: atEnd && from > 0 ? from - 1 : from, end, text: '', depth: 0 });
      continue;
    }
    const index = node.pairs.indexOf(p);
    const next = node.pairs.slice(index + 1).find((q) => stays.includes(q));
    if (next === undefined) throw new NotPlain();
    o.splices.push({ start: p.keyStart, end: next.keyStart, text: '', depth: 0 });
  }
  if (node.added !== undefined && node.added.length > 0) {
    const alone = node.pairs.find((p) => p.alone) ?? node.pairs[0];
    const col = alone.keyStart - lineStart(o.src, alone.keyStart);
    const seqStyle = siblingSeqStyle(o, stays) ?? o.look().indentSeq;
    const lines = node.added.flatMap((key) => blockLines(o, { [key]: map[key] }, seqStyle));
    insert(o, col, node.last, lines, depth);
  }
}

/**
 * styleOf (document.ts) of a document read from its lines: each key over a block votes with the column its value's
 * first line starts at, as styleOf reads it from the text.
 */
function linesStyle(src: string, root: LMap): { indent: number; indentSeq: boolean } {
  const votes = new StyleVotes();
  const column = (at: number) => at - lineStart(src, at);
  const walk = (node: LNode): void => {
    if (node.kind === 'seq') node.items.forEach(walk);
    if (node.kind !== 'map') return;
    for (const p of node.pairs) {
      if (p.value.kind === 'seq') votes.add(column(p.keyStart), column(p.value.dash), true);
      else if (p.value.kind === 'map') votes.add(column(p.keyStart), column(p.value.pairs[0].keyStart), false);
      walk(p.value);
    }
  };
  walk(root);
  return votes.style();
}

/** splice.ts's insertBlock: the new lines after the last item's content, at column `col`. */
function insert(o: Out, column: number, last: number, lines: readonly string[], depth: number): void {
  const pad = ' '.repeat(column);
  const at = nextLine(o.src, last);
  const body = lines.map((l) => pad + l);
  const text = o.src[at - 1] === '\n' ? body.map((l) => l + o.eol).join('') : o.eol + body.join(o.eol);
  o.splices.push({ start: at, end: at, text, depth });
}

/** splice.ts's siblingSeqStyle over the pairs that stay (added ones do not vote). */
function siblingSeqStyle(o: Out, pairs: readonly LPair[]): boolean | undefined {
  let votes = 0;
  for (const p of pairs) {
    if (p.value.kind !== 'seq') continue;
    const keyCol = p.keyStart - lineStart(o.src, p.keyStart);
    const dashCol = p.value.dash - lineStart(o.src, p.value.dash);
    votes += dashCol > keyCol ? 1 : -1;
  }
  return votes === 0 ? undefined : votes > 0;
}

/** splice.ts's blockLines for a plain value. */
function blockLines(o: Out, value: unknown, indentSeq: boolean): readonly string[] {
  // The same few values (a toleration, `os: {name: windows}`) are written into thousands of documents.
  const { indent, padded } = o.look();
  const key = `${indent}${indentSeq ? 's' : 'f'}${padded ? 'p' : 'n'}${JSON.stringify(value)}`;
  const known = BLOCK_LINES.get(key);
  if (known === null) throw new NotPlain();
  if (known !== undefined) return known;
  const text = new Document(value).toString({
    indent,
    indentSeq,
    lineWidth: 0,
    minContentWidth: 0,
    flowCollectionPadding: padded,
  });
  // What the lines are read back as is checked once here, so the document they go into need not be read again.
  const lines = readsBack(text, value) ? text.replace(/\n$/, '').split('\n') : null;
  if (BLOCK_LINES.size >= BLOCK_LINES_KEPT) BLOCK_LINES.clear();
  BLOCK_LINES.set(key, lines);
  if (lines === null) throw new NotPlain();
  return lines;
}

/** Whether js-yaml reads `text` (a value's block lines) as `value`. */
function readsBack(text: string, value: unknown): boolean {
  const back = readFast(text);
  return back !== undefined && sameValue(back.value, value);
}

/**
 * The lines of values written lately, by style and value (JSON), or null for a value whose lines do not read back
 * as it: a bound keeps a run of distinct values small.
 */
const BLOCK_LINES = new Map<string, readonly string[] | null>();
const BLOCK_LINES_KEPT = 1_000;
