/**
 * The YAML side of `fixManifests`: documents parsed with the `yaml` library's Document API, edits checked and
 * applied there, and the text put back together from the source: documents with nothing to fix come out as their
 * original bytes, edited ones as their source with only the edits spliced in (splice.ts). The items of a List are
 * documents of their own here (list-items.ts), so a ResourceList of thousands of items costs what a stream does.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  isAlias,
  isCollection,
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  visit,
  type Document,
  type Node,
  type YAMLMap,
} from 'yaml';
import {
  loadSpans,
  MAX_ALIAS_COUNT,
  mayHoldAliases,
  parseDocuments,
  parsePath,
  readDocument,
  rememberListItem,
  rememberOrigin,
  type DocumentSpan,
  type LoadError,
} from './loader';
import type { FixEdit } from '../model/fixes';
import { isRecord } from '../model/util';
import { splitListItems, type ListItems } from './list-items';
import { paddedFlow, rememberParsed, spliceDocument, StyleVotes, type DocStyle } from './splice';
import { directEdits, type DirectResult } from './direct';
import { operationOf, type Operations } from './operations';

export interface DirectEdits {
  readonly results: readonly DirectResult[];
  commit(): void;
}

type Segments = (string | number)[];

/** One object of a document: the document itself, or an item of a `List` (`base` = `['items', i]`). */
export interface DocObject {
  readonly value: unknown;
  readonly doc: ParsedDoc;
  readonly base: readonly (string | number)[];
}

export interface ParsedDoc {
  /** The document's node tree (built on first use for a document read by `readText`). */
  readonly doc: Document.Parsed;
  /** The document's text in the input, from the end of the previous document (leading comments included). */
  readonly start: number;
  readonly end: number;
  readonly source?: string;
  changed: boolean;
  /** The edited document's text, once `finish` has rendered it. */
  readonly rendered?: string;
  /**
   * The edits made from the document's lines, without its node tree (direct.ts): each edit's result, and `commit`
   * to keep the text when something changed; undefined where the node tree must make them. Only for a document of
   * one object (`base` its place: `[]`, or a List item's own document).
   */
  direct?(value: unknown, base: readonly (string | number)[], edits: readonly FixEdit[]): DirectEdits | undefined;
  /**
   * The document's text as the next pass finds it and its value as js-yaml reads it, where known without reading it
   * again: a document read by js-yaml and left alone, or one edited from its lines (which read back as the edited
   * value). Else undefined.
   */
  reading?(): { readonly text: string; readonly value: unknown } | undefined;
  /**
   * Renders an edited document and lets its node tree go (a document read by `readText`): with the tree of every
   * edited document kept until the end, a 50 MB input took gigabytes.
   */
  finish?(): void;
}

export interface ParsedText {
  /** The input after its byte-order mark. */
  readonly text: string;
  /** The byte-order mark the input started with (`\uFEFF`), put back in front of the output; or ''. */
  readonly bom: string;
  readonly source?: string;
  readonly docs: readonly ParsedDoc[];
  readonly objects: readonly DocObject[];
  readonly errors: readonly LoadError[];
}

/**
 * A document read by the loader's fast path (js-yaml): its `yaml` node tree is parsed from its own text only when
 * an edit needs it, and released once the edited document is rendered. Node offsets then count from `start`.
 */
class SpanDoc implements ParsedDoc {
  changed = false;
  rendered: string | undefined;
  private tree: Document.Parsed | undefined;
  /** Where `yaml` ends the last document of a text (before a final empty line, say); else the next one's start. */
  private yamlEnd: number | undefined;

  /** The value of the document as written (what its lines read back as: directEdits), once edited from its lines. */
  private written: { readonly value: unknown } | undefined;

  constructor(
    private readonly text: string,
    readonly start: number,
    private readonly spanEnd: number,
    private readonly last: boolean,
    readonly source: string | undefined,
    /** The loader read the document with js-yaml, as this one object (`value`): undefined otherwise. */
    private readonly read?: { readonly value: unknown },
  ) {}

  reading(): { readonly text: string; readonly value: unknown } | undefined {
    if (!this.changed) {
      return this.read === undefined ? undefined : { text: this.text.slice(this.start, this.spanEnd), ...this.read };
    }
    return this.written === undefined || this.rendered === undefined
      ? undefined
      : { text: this.rendered, value: this.written.value };
  }

  get doc(): Document.Parsed {
    if (this.tree !== undefined) return this.tree;
    if (this.rendered !== undefined) throw new Error('internal: a document was edited after it was rendered');
    const parsed = parseDocuments(this.text.slice(this.start, this.spanEnd), new LineCounter(), this.source);
    // The span is one document (the loader read its objects from it), so this is the document parsed alone.
    const doc = 'docs' in parsed ? parsed.docs.find((d) => d.contents !== null) : undefined;
    if (doc === undefined) throw new Error('internal: a document with objects parsed to none');
    if (this.last) this.yamlEnd = this.start + doc.range[2];
    return (this.tree = doc);
  }

  get end(): number {
    return this.yamlEnd ?? this.spanEnd;
  }

  finish(): void {
    if (this.tree === undefined) return;
    if (this.changed && this.rendered === undefined) {
      const own = this.text.slice(this.start, this.end);
      this.rendered = renderDoc(own, 0, own.length, this.tree);
    }
    this.tree = undefined;
  }

  direct(value: unknown, base: readonly (string | number)[], edits: readonly FixEdit[]): DirectEdits | undefined {
    if (base.length > 0 || this.tree !== undefined || this.rendered !== undefined) return undefined;
    return linesEdits(this.text.slice(this.start, this.spanEnd), this.last, value, edits, undefined, '', (text, v) => {
      this.changed = true;
      this.rendered = text;
      this.written = { value: v };
    });
  }
}

/** `directEdits` on a document's (or List item's) own text `own`, `commit` told the text and value it writes. */
function linesEdits(
  own: string,
  last: boolean,
  value: unknown,
  edits: readonly FixEdit[],
  style: DocStyle | undefined,
  prefix: string,
  commit: (text: string, value: unknown) => void,
): DirectEdits | undefined {
  // The last document ends where `yaml` ends it: the same place only after a content line (one line break at most).
  if (last && !/[^\s]\n?$/.test(own)) return undefined;
  const made = directEdits(own, value, edits, style, prefix);
  return made === undefined ? undefined : { results: made.results, commit: () => commit(made.text, made.value) };
}

/**
 * Thrown where an item of a List fixed item by item cannot be (its text does not parse alone as the item the loader
 * read, or its edits cannot be spliced): `fixManifestSet` then fixes the input again with each List as one document,
 * the path that writes every case (re-rendering the List where the splicer cannot write an edit).
 */
export class WholeListNeeded extends Error {
  constructor(reason: string) {
    super(`internal: a List item cannot be fixed on its own (${reason})`);
  }
}

/** What the items of one List document share: its text's style, read once and only when an item is edited. */
class ListDoc {
  private style: DocStyle | undefined;

  constructor(
    readonly text: string,
    readonly start: number,
    readonly end: number,
    readonly items: ListItems,
    /** js-yaml's value of the whole List (its envelope with the items). */
    readonly value: unknown,
  ) {}

  /** The whole List's style: every item is written as the List would be (splice.ts reads it from one document). */
  styleOf(): DocStyle {
    if (this.style !== undefined) return this.style;
    const source = this.text.slice(this.start, this.end);
    return (this.style = {
      ...styleOf(source),
      eol: source.includes('\r\n') ? '\r\n' : '\n',
      padded: paddedFlow(source),
    });
  }
}

/**
 * Where the node tree of an item parsed alone holds it (`['items', 0]`) and where the List holds it
 * (`['items', k]`): edits walk the one and say the other, so messages read as for the whole List.
 */
const RELOCATED = new WeakMap<Document, { readonly shown: Segments }>();

/**
 * One item of a List, fixed as a document of its own: its `yaml` node tree is parsed from its own text under the
 * List's `items:` line only when an edit needs it, and the edited item is spliced back in place, read back alone.
 * A List of thousands of items then costs what a stream of as many documents does.
 */
class ItemDoc implements ParsedDoc {
  changed = false;
  rendered: string | undefined;
  private tree: Document.Parsed | undefined;
  private yamlEnd: number | undefined;
  /** The value of the item as written (what its lines read back as: directEdits), once edited from its lines. */
  written: { readonly value: unknown } | undefined;

  constructor(
    readonly list: ListDoc,
    private readonly index: number,
    readonly start: number,
    private readonly itemEnd: number,
    /** The item ends its text: where `yaml` ends the document then ends it (as SpanDoc's last document). */
    private readonly last: boolean,
    readonly value: unknown,
    readonly source: string | undefined,
  ) {}

  get doc(): Document.Parsed {
    if (this.tree !== undefined) return this.tree;
    if (this.rendered !== undefined) throw new Error('internal: a document was edited after it was rendered');
    const prefix = this.list.items.prefix;
    const parsed = parseDocuments(prefix + this.list.text.slice(this.start, this.itemEnd), new LineCounter());
    const docs = 'docs' in parsed ? parsed.docs.filter((d) => d.contents !== null) : [];
    const doc = docs[0];
    if (docs.length !== 1 || doc.errors.length > 0) throw new WholeListNeeded('it does not parse alone');
    // The item as the loader read it, or the split went wrong: the List is then fixed whole.
    const items = isMap(doc.contents) && doc.contents.items.length === 1 ? doc.contents.get('items', true) : undefined;
    if (!isSeq(items) || items.items.length !== 1) throw new WholeListNeeded('it is not one item');
    if (!sameObject(doc, this.value)) throw new WholeListNeeded('it is another object alone');
    if (this.last) this.yamlEnd = this.start + doc.range[2] - prefix.length;
    RELOCATED.set(doc, { shown: ['items', this.index] });
    return (this.tree = doc);
  }

  get end(): number {
    return this.yamlEnd ?? this.itemEnd;
  }

  /** Not alone: the next pass reads the List whole, known when all its items are (listReading). */
  reading(): undefined {
    return undefined;
  }

  direct(value: unknown, _base: readonly (string | number)[], edits: readonly FixEdit[]): DirectEdits | undefined {
    if (this.tree !== undefined || this.rendered !== undefined || value !== this.value) return undefined;
    const style = this.list.styleOf();
    if (style.eol !== undefined && style.eol !== '\n') return undefined;
    const own = this.list.text.slice(this.start, this.itemEnd);
    return linesEdits(own, this.last, value, edits, style, this.list.items.prefix, (text, v) => {
      this.changed = true;
      this.rendered = text;
      // Written as the List of this one item.
      this.written = { value: (v as { readonly items: readonly unknown[] }).items[0] };
    });
  }

  finish(): void {
    if (this.tree === undefined) return;
    if (this.changed && this.rendered === undefined) {
      const prefix = this.list.items.prefix;
      const src = prefix + this.list.text.slice(this.start, this.end);
      const spliced = spliceDocument(src, prefix.length, src.length, this.tree, this.list.styleOf(), prefix);
      // The whole List re-rendered (what a document the splicer cannot write gets) is the whole-document path's.
      if (spliced === undefined) throw new WholeListNeeded('its edits cannot be spliced');
      this.rendered = spliced;
    }
    this.tree = undefined;
  }
}

/**
 * Whether the item parsed alone names the object the loader read in its place (kind, apiVersion, name, namespace):
 * splitListItems places items by their lines, and a misplaced one would show here. (Comparing the whole values
 * cost a tenth of the run.)
 */
function sameObject(doc: Document.Parsed, value: unknown): boolean {
  const scalar = (path: Segments, expected: unknown) => {
    const node = doc.getIn(['items', 0, ...path], true);
    return node === undefined ? expected === undefined : isScalar(node) && node.value === expected;
  };
  if (!isRecord(value)) return false;
  const metadata = isRecord(value.metadata) ? value.metadata : {};
  return (
    scalar(['kind'], value.kind) &&
    scalar(['apiVersion'], value.apiVersion) &&
    scalar(['metadata', 'name'], metadata.name) &&
    scalar(['metadata', 'namespace'], metadata.namespace)
  );
}

/**
 * The items of a List document read by the fast path, each a document of its own (ItemDoc), with its positions
 * from its own text; or undefined where the List is read as one document: a List that may hold aliases (an item
 * could share an anchor with another), or whose text is not a block sequence of items splitListItems can place.
 */
function listItemDocs(
  text: string,
  span: DocumentSpan,
  last: boolean,
  source: string | undefined,
): ItemDoc[] | undefined {
  const objects = span.objects;
  if (!span.fast || objects.length === 0 || objects.some((o) => o.base.length !== 2 || o.base[0] !== 'items')) {
    return undefined;
  }
  const chunk = text.slice(span.start, span.end);
  if (mayHoldAliases(chunk)) return undefined;
  const items = splitListItems(text, span.start, span.end, objects.length);
  if (items === undefined) return undefined;
  const list = new ListDoc(text, span.start, span.end, items, span.value);
  let line = span.line;
  let at = span.start;
  return items.starts.map((start, k) => {
    const end = k + 1 < items.starts.length ? items.starts[k + 1] : items.end;
    for (let i = text.indexOf('\n', at); i >= 0 && i < start; i = text.indexOf('\n', i + 1)) line++;
    at = start;
    // Positions inside the item are read from its own text (one line of prefix before it).
    rememberListItem(objects[k].value, items.prefix + text.slice(start, end), line - 1, source);
    return new ItemDoc(list, k, start, end, last && end === span.end, objects[k].value, source);
  });
}

/**
 * Reads a text for fixing: with the loader's fast path where it can split the documents (a `yaml` node tree is
 * then built only for a document an edit needs, and the items of a List are documents of their own), else as
 * `parseText`. The objects, their positions and the errors are the same either way
 * (test/core/validate/fast-load.test.ts and test/core/yaml/fast-load.property.test.ts hold the loader to it); so is
 * the output.
 */
export function readText(
  input: string,
  source?: string,
  /** `false`: every List is one document (`fixManifestSet` falls back to it: WholeListNeeded). @default true */
  splitLists = true,
  /** What js-yaml read of the whole text already (`loadSpans`' `read`). */
  whole?: { readonly value: unknown },
  /** What the previous pass knows of this text's documents (`nextReadings`). */
  known?: Readings,
): ParsedText {
  const bom = input.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = input.slice(bom.length);
  const lookup =
    known === undefined
      ? undefined
      : (start: number, chunk: string) => {
          const k = known.get(start);
          return k !== undefined && k.text === chunk ? k.value : undefined;
        };
  const read = loadSpans(text, source, whole, lookup);
  if (read === undefined) return parseText(input, source);
  const docs: ParsedDoc[] = [];
  const objects: DocObject[] = [];
  read.spans.forEach((span, i) => {
    if (span.objects.length === 0) return;
    const last = i === read.spans.length - 1;
    const items = splitLists ? listItemDocs(text, span, last, source) : undefined;
    if (items !== undefined) {
      items.forEach((doc, k) => {
        docs.push(doc);
        objects.push({ value: span.objects[k].value, doc, base: span.objects[k].base });
      });
      return;
    }
    const one = span.fast && span.objects.length === 1 && span.objects[0].base.length === 0;
    const doc = new SpanDoc(
      text,
      span.start,
      span.end,
      last,
      source,
      one ? { value: span.objects[0].value } : undefined,
    );
    docs.push(doc);
    for (const { value, base } of span.objects) objects.push({ value, doc, base });
  });
  return { text, bom, ...(source !== undefined ? { source } : {}), docs, objects, errors: read.errors };
}

/** Parses every document, reads the objects of the well-formed ones (List items unwrapped) as the loader does. */
export function parseText(input: string, source?: string): ParsedText {
  // A UTF-8 byte-order mark is not part of the first document: read without it, given back in front.
  const bom = input.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = input.slice(bom.length);
  const lineCounter = new LineCounter();
  const docs: ParsedDoc[] = [];
  const objects: DocObject[] = [];
  const errors: LoadError[] = [];
  const parsed = parseDocuments(text, lineCounter, source);
  // Nothing can be edited in a text the parser cannot read: it is given back as it is.
  if ('error' in parsed) {
    return {
      text,
      bom,
      ...(source !== undefined ? { source } : {}),
      docs,
      objects,
      errors: [parsed.error],
    };
  }
  let previousEnd = 0;
  for (const doc of parsed.docs) {
    const read = readDocument(doc, lineCounter, source);
    const entry: ParsedDoc = {
      doc,
      start: previousEnd,
      end: doc.range[2],
      ...(source !== undefined ? { source } : {}),
      changed: false,
    };
    previousEnd = doc.range[2];
    docs.push(entry);
    if ('errors' in read) {
      errors.push(...read.errors);
      continue;
    }
    for (const { value, base } of read.objects) {
      rememberOrigin(value, doc, lineCounter, source, base);
      objects.push({ value, doc: entry, base });
    }
  }
  return { text, bom, ...(source !== undefined ? { source } : {}), docs, objects, errors };
}

export type EditResult =
  | { readonly ok: true; readonly previous?: unknown; readonly value?: unknown }
  | { readonly ok: false; readonly reason: string };

/** `{a: {b: value}}` for the path `[a, b]`, so a missing or null parent is created in one node. */
function nested(segments: Segments, value: unknown): unknown {
  let out = value;
  for (let i = segments.length - 1; i >= 0; i--) {
    const seg = segments[i];
    out = typeof seg === 'number' ? [out] : { [seg]: out };
  }
  return out;
}

function nodeJS(doc: Document, node: unknown): unknown {
  if (isScalar(node)) return node.value;
  if (isCollection(node)) return node.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT });
  return node;
}

/** The anchors some alias of the document refers to: a node carrying one is shared with other places. */
function referencedAnchors(doc: Document): ReadonlySet<string> {
  const cached = REFERENCED.get(doc);
  if (cached) return cached;
  const out = new Set<string>();
  visit(doc, {
    Alias(_, node) {
      out.add(node.source);
    },
  });
  REFERENCED.set(doc, out);
  return out;
}
const REFERENCED = new WeakMap<Document, ReadonlySet<string>>();

/** The anchor of `node` when other places of the document use it. */
function sharedAnchor(doc: Document, node: unknown): string | undefined {
  const anchor = isNode(node) ? node.anchor : undefined;
  return anchor !== undefined && referencedAnchors(doc).has(anchor) ? anchor : undefined;
}

/** The first shared anchor inside `node` (itself included): deleting or replacing it would leave aliases dangling. */
function sharedAnchorWithin(doc: Document, node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  let found: string | undefined;
  visit(node, (_, n) => {
    const anchor = sharedAnchor(doc, n);
    if (anchor === undefined) return undefined;
    found = anchor;
    return visit.BREAK;
  });
  return found;
}

/** Whether a `<<` merge key of `map` provides `key`: the map then shows that key without holding it. */
function mergedKey(doc: Document, map: YAMLMap, key: string | number): boolean {
  for (const pair of map.items) {
    if (!isScalar(pair.key) || (pair.key.source !== '<<' && typeof pair.key.value !== 'symbol')) continue;
    const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
    for (const source of sources) {
      const resolved = isAlias(source) ? source.resolve(doc) : source;
      if (isMap(resolved) && (resolved.has(key) || mergedKey(doc, resolved, key))) return true;
    }
  }
  return false;
}

const SHARED = (anchor: string) =>
  `it sits in the YAML anchor &${anchor}, which other places share: changing it there would change them too`;
const BEHIND_ALIAS = 'it sits behind a YAML alias, shared with other places';
const FROM_MERGE = 'it comes from a YAML merge key (<<), shared with other places';

/**
 * Walks to the edited node. Fails where an edit would reach beyond its own object or field: through an alias, into
 * an anchor other places use, under a key a merge key provides, or through a value that is not a collection of the
 * right kind. `depth` is how many segments exist (the rest is created).
 */
function walk(
  doc: Document,
  segments: Segments,
  /** The segments as messages say them (an item parsed alone is `items[0]` in its tree, `items[k]` in the List). */
  shown: Segments = segments,
): { ok: true; depth: number; node: unknown; parent: unknown } | { ok: false; reason: string } {
  let node: unknown = doc.contents;
  let parent: unknown = undefined;
  for (let i = 0; i < segments.length; i++) {
    if (isAlias(node)) return { ok: false, reason: BEHIND_ALIAS };
    const anchor = sharedAnchor(doc, node);
    if (anchor !== undefined) return { ok: false, reason: SHARED(anchor) };
    if (node === null || node === undefined || (isScalar(node) && (node.value === null || node.value === undefined))) {
      return { ok: true, depth: i, node, parent };
    }
    const seg = segments[i];
    parent = node;
    if (isMap(node)) {
      const next = node.get(seg, true);
      if (next === undefined && mergedKey(doc, node, seg)) return { ok: false, reason: FROM_MERGE };
      node = next;
    } else if (isSeq(node) && typeof seg === 'number') node = node.get(seg, true);
    else
      return {
        ok: false,
        reason: `the value at ${shown.slice(0, i).join('.')} is not a ${typeof seg === 'number' ? 'list' : 'mapping'}`,
      };
  }
  if (isAlias(node)) return { ok: false, reason: BEHIND_ALIAS };
  return { ok: true, depth: segments.length, node, parent };
}

/** Sets `value` at `segments`, creating what is missing (a null parent is replaced by the nested value). */
function setAt(doc: Document, segments: Segments, value: unknown, depth: number): void {
  if (depth >= segments.length) {
    doc.setIn(segments, doc.createNode(value));
    return;
  }
  const prefix = segments.slice(0, depth);
  const rest = segments.slice(depth);
  if (prefix.length === 0) throw new Error('the document is empty');
  doc.setIn(prefix, doc.createNode(nested(rest, value)));
}

/**
 * The path of an edit in `doc`'s tree, and as the List says it: `base` is where the loader placed the object in its
 * document (`['items', k]`), which is `['items', 0]` in the tree of an item parsed alone.
 */
function segmentsOf(
  doc: Document,
  base: readonly (string | number)[],
  edit: FixEdit,
): { readonly segments: Segments; readonly shown: Segments } {
  const path = parsePath(edit.path);
  const moved = RELOCATED.get(doc);
  const shown: Segments = [...base, ...path];
  if (moved === undefined || !isDeepStrictEqual(base, moved.shown)) return { segments: shown, shown };
  return { segments: ['items', 0, ...path], shown };
}

/** Where an edit lands in a node tree: its path there, and how much of it exists (`walk`). */
interface TreeAt {
  readonly doc: Document;
  readonly segments: Segments;
  readonly reached: { readonly depth: number; readonly node: unknown; readonly parent: unknown };
}

/**
 * The node-tree strategy: every operation made with the `yaml` Document API, which splice.ts then writes into the
 * source. It refuses what would change more than the edited field (a shared anchor, an alias, a merge key).
 */
const TREE: Operations<{
  readonly checkAt: TreeAt;
  readonly applyAt: TreeAt;
  /** The reason it cannot be made, or undefined. */
  readonly checked: string | undefined;
  readonly applied: EditResult;
}> = {
  set: {
    check({ doc, segments, reached }) {
      // The node replaced (or the null parent the new value replaces) must not carry an anchor others use.
      const exists = reached.depth === segments.length;
      const replaced = exists
        ? reached.node
        : reached.depth > 0
          ? doc.getIn(segments.slice(0, reached.depth), true)
          : undefined;
      const anchor = sharedAnchorWithin(doc, replaced);
      return anchor === undefined ? undefined : SHARED(anchor);
    },
    apply({ doc, segments, reached }, edit) {
      const exists = reached.depth === segments.length;
      const previous = exists ? nodeJS(doc, reached.node) : undefined;
      if (exists && previous === edit.value) return { ok: true, previous, value: edit.value };
      setAt(doc, segments, edit.value, exists ? segments.length : reached.depth);
      return { ok: true, ...(previous !== undefined ? { previous } : {}), value: edit.value };
    },
  },
  remove: {
    check({ doc, segments, reached }) {
      const exists = reached.depth === segments.length;
      if (!exists || reached.node === undefined) {
        return isMap(reached.parent) && mergedKey(doc, reached.parent, segments[segments.length - 1])
          ? FROM_MERGE
          : 'it is not in this mapping';
      }
      // Removing a key a merge key also provides would show the merged value instead of removing it.
      if (isMap(reached.parent) && mergedKey(doc, reached.parent, segments[segments.length - 1])) return FROM_MERGE;
      const anchor = sharedAnchorWithin(doc, reached.node);
      return anchor === undefined ? undefined : SHARED(anchor);
    },
    apply({ doc, segments, reached }) {
      const previous = nodeJS(doc, reached.node);
      doc.deleteIn(segments);
      // `securityContext: {}` means the same as no securityContext: do not leave the empty shell behind.
      const parent = segments.slice(0, -1);
      const shell = doc.getIn(parent, true);
      if (parent[parent.length - 1] === 'securityContext' && isMap(shell) && shell.items.length === 0) {
        doc.deleteIn(parent);
      }
      return { ok: true, previous };
    },
  },
  append: {
    check({ segments, reached, doc }, edit) {
      const exists = reached.depth === segments.length;
      if (
        exists &&
        reached.node !== undefined &&
        !isSeq(reached.node) &&
        !(isScalar(reached.node) && reached.node.value === null)
      ) {
        return `${edit.path} is not a list`;
      }
      // The list itself may be the anchor (`tolerations: &shared []`): an item added there is added at every alias.
      const anchor = exists ? sharedAnchor(doc, reached.node) : undefined;
      return anchor === undefined ? undefined : SHARED(anchor);
    },
    apply({ doc, segments, reached }, edit) {
      const target = reached.depth === segments.length ? reached.node : undefined;
      if (isSeq(target)) {
        target.add(doc.createNode(edit.value));
      } else {
        setAt(doc, segments, [edit.value], target === undefined ? reached.depth : segments.length);
      }
      return { ok: true, value: edit.value };
    },
  },
};

const unknownEdit = (edit: FixEdit) => `unknown edit ${JSON.stringify(edit)}`;

/**
 * Whether `edit` can be made on the object at `base` of `doc` without changing anything but its own field: the
 * reason when it cannot. Never changes the document.
 */
export function checkEdit(doc: Document, base: readonly (string | number)[], edit: FixEdit): string | undefined {
  const { segments, shown } = segmentsOf(doc, base, edit);
  const reached = walk(doc, segments, shown);
  if (!reached.ok) return reached.reason;
  const operation = operationOf(TREE, edit);
  return operation === undefined ? unknownEdit(edit) : operation.check({ doc, segments, reached }, edit);
}

/** Applies one edit to the object at `base` of `doc`. Never throws: a failure carries the reason. */
export function applyEdit(doc: Document, base: readonly (string | number)[], edit: FixEdit): EditResult {
  const refused = checkEdit(doc, base, edit);
  if (refused !== undefined) return { ok: false, reason: refused };
  const { segments, shown } = segmentsOf(doc, base, edit);
  const reached = walk(doc, segments, shown);
  if (!reached.ok) return reached;
  // What the document held before its first edit: the output is that source with only the differences spliced in.
  rememberParsed(doc, segments);
  try {
    const operation = operationOf(TREE, edit);
    return operation === undefined
      ? { ok: false, reason: unknownEdit(edit) }
      : operation.apply({ doc, segments, reached }, edit);
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * How one object's edits are made (README.md): from its lines, where they make every edit as the node tree would
 * (`commit` keeps the text once something changed); else on its node tree, edit by edit, each `check`ed first.
 */
export type ObjectEditor =
  | { readonly strategy: 'lines'; readonly results: readonly DirectResult[]; commit(): void }
  | {
      readonly strategy: 'tree';
      /** Why `edit` cannot be made without changing more than its field; undefined when it can. */
      check(edit: FixEdit): string | undefined;
      apply(edit: FixEdit): EditResult;
    };

/** The strategy that makes `edits` on `object`: its lines where `lines` allows them and they can, else its tree. */
export function editorOf(object: DocObject, edits: readonly FixEdit[], lines: boolean): ObjectEditor {
  const direct = lines ? object.doc.direct?.(object.value, object.base, edits) : undefined;
  if (direct !== undefined) return { strategy: 'lines', results: direct.results, commit: () => direct.commit() };
  return {
    strategy: 'tree',
    check: (edit) => checkEdit(object.doc.doc, object.base, edit),
    apply: (edit) => applyEdit(object.doc.doc, object.base, edit),
  };
}

/**
 * How the document writes block sequences under a key (`key:\n- a` or `key:\n  - a`) and how far it indents
 * mappings, each by majority: the `yaml` library renders one style per document.
 */
export function styleOf(source: string): { indent: number; indentSeq: boolean } {
  const lines = source.split(/\r?\n/);
  const votes = new StyleVotes();
  for (let i = 0; i + 1 < lines.length; i++) {
    // A key whose value is a block on the next lines: `  key:` or `  - key:` (the key then sits after the dash).
    const m = /^( *)((?:- +)*)[^\s#-][^#]*:\s*$/.exec(lines[i]);
    if (!m) continue;
    // The next line with content, found in place: copying the rest of the lines for each key made a ResourceList
    // of thousands of items (one document) cost seconds.
    let k = i + 1;
    while (k < lines.length && (lines[k].trim() === '' || lines[k].trimStart().startsWith('#'))) k++;
    if (k >= lines.length) continue;
    const next = lines[k];
    const sequence = next.trimStart().startsWith('- ') || next.trim() === '-';
    votes.add(m[1].length + m[2].length, next.length - next.trimStart().length, sequence);
  }
  return votes.style();
}

/** Whether the document's source is JSON, which is then written back as JSON (indented as it was). */
function jsonIndent(source: string): number | undefined {
  try {
    JSON.parse(source);
  } catch {
    return undefined;
  }
  const m = /\n( +)"/.exec(source);
  return m ? m[1].length : 2;
}

/**
 * The text of one edited document, `doc` parsed from `text` and found between `start` and `end`: its source with
 * the edits spliced in, or, for the rare edit the splicer cannot write, the whole document re-rendered in the style
 * of its source.
 */
function renderDoc(text: string, start: number, end: number, doc: Document.Parsed): string {
  const source = text.slice(start, end);
  const { indent, indentSeq } = styleOf(source);
  const spliced = spliceDocument(text, start, end, doc, { indent, indentSeq });
  if (spliced !== undefined) return spliced;
  const flowRoot = isCollection(doc.contents) && doc.contents.flow === true;
  const json = flowRoot ? jsonIndent(source) : undefined;
  let out =
    json !== undefined
      ? `${JSON.stringify(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), null, json)}\n`
      : doc.toString({
          // A document written as one flow collection (JSON-like YAML) is folded at 80 columns, not put on one line.
          lineWidth: flowRoot ? 80 : 0,
          minContentWidth: 0,
          flowCollectionPadding: false,
          indent,
          indentSeq,
        });
  if (source.includes('\r\n')) out = out.replace(/\r?\n/g, '\r\n');
  // A document without a trailing newline in the source (the last one of a file) stays without one.
  if (!/\n$/.test(source)) out = out.replace(/\r?\n$/, '');
  return out;
}

/** js-yaml's values of a text's documents by where each starts (after a byte-order mark), with their texts. */
export type Readings = ReadonlyMap<number, { readonly text: string; readonly value: unknown }>;

/**
 * What the next pass need not read again in the text `renderText(p)` wrote: the documents left alone and those
 * edited from their lines, by where they start in it. The loader still checks each text against its document's.
 */
export function nextReadings(p: ParsedText): Readings {
  const out = new Map<number, { readonly text: string; readonly value: unknown }>();
  let shift = 0;
  let list: ListDoc | undefined;
  for (const [k, d] of p.docs.entries()) {
    if (d instanceof ItemDoc && d.list !== list) {
      // The first item of a List: the List is one document to the loader.
      list = d.list;
      const known = listReading(p.docs.slice(k), list);
      if (known !== undefined) out.set(list.start + shift, known);
    }
    const known = d.reading?.();
    if (known !== undefined) out.set(d.start + shift, known);
    if (!d.changed) continue;
    // Rendered by renderText: its length moves the documents after it.
    if (d.rendered === undefined) return out;
    shift += d.rendered.length - (d.end - d.start);
  }
  return out;
}

/**
 * A List's text as renderText writes it and its value, where every item is known (left alone, or edited from its
 * lines): its envelope as read, with the items' values.
 */
function listReading(
  docs: readonly ParsedDoc[],
  list: ListDoc,
): { readonly text: string; readonly value: unknown } | undefined {
  if (!isRecord(list.value)) return undefined;
  let text = '';
  let at = list.start;
  const items: unknown[] = [];
  for (const d of docs) {
    if (!(d instanceof ItemDoc) || d.list !== list) break;
    if (d.changed && (d.written === undefined || d.rendered === undefined)) return undefined;
    items.push(d.changed ? d.written!.value : d.value);
    text += list.text.slice(at, d.start) + (d.changed ? d.rendered! : list.text.slice(d.start, d.end));
    at = d.end;
  }
  return { text: text + list.text.slice(at, list.end), value: { ...list.value, items } };
}

/** The input with the edits of edited documents written in, and every other byte as it was. */
export function renderText(p: ParsedText): string {
  if (!p.docs.some((d) => d.changed)) return p.bom + p.text;
  let out = p.bom;
  let at = 0;
  for (const d of p.docs) {
    if (!d.changed) continue;
    d.finish?.();
    out += p.text.slice(at, d.start) + (d.rendered ?? renderDoc(p.text, d.start, d.end, d.doc));
    at = d.end;
  }
  return out + p.text.slice(at);
}

export type { Node };
