/**
 * Where a finding's field starts in a block-style document, read from the lines' indentation along the finding's
 * path only, beside the value js-yaml already built from the same text. A second js-yaml pass over the whole
 * document to index its nodes cost as much as reading it (40 MB of real manifests: about 4 s of a 7 s lint), and
 * nearly every real document has a finding. Anything this reader does not follow exactly as js-yaml does (flow
 * collections, quotes with escapes or across lines, tags, anchors, aliases, merge keys, tabs in indentation, keys
 * that may not read as plain strings, empty list entries) is left to the index: it answers `undefined`, never a
 * guess. Every mapping and list it passes through is checked against the value (the same keys, the same number
 * of items), so a line it misread (a quoted scalar continued at a shallower indentation) sends it to the index.
 */

/**
 * The lines of a document that hold content (neither blank nor only a comment), as arrays by line: where each
 * starts, its indentation in spaces, whether a tab follows them, and the next line indented no deeper (the end of
 * its subtree), so a scan steps from key to key without reading the lines between. `readable` is false where the
 * lines do not show the structure (see `lineTable`).
 */
interface LineTable {
  readonly readable: boolean;
  readonly count: number;
  readonly start: Int32Array;
  readonly indent: Int32Array;
  readonly tab: Uint8Array;
  readonly next: Int32Array;
}

const UNREADABLE: LineTable = {
  readable: false,
  count: 0,
  start: new Int32Array(0),
  indent: new Int32Array(0),
  tab: new Uint8Array(0),
  next: new Int32Array(0),
};

/**
 * The line table of a document, in one pass that also follows what each line opens: a block scalar's lines are
 * passed over, and a quoted scalar or flow collection that spans lines must stay indented past its key (or `-`) on
 * every line after its first. js-yaml also reads one continued on a shallower line (`a: "x` / `b: y"` is
 * `{a: 'x b: y'}`), which would read here as a key; in a document without one, the lines at a structure's own
 * indentation are its keys or entries. A line that only looks like an open quote costs the index, never a wrong
 * answer. A lone carriage return (a line break to js-yaml, not here) makes the document unreadable too.
 */
function lineTable(text: string): LineTable {
  if (text.includes('\r') && /\r(?!\n)/.test(text)) return UNREADABLE;
  const n = text.length;
  let count = 0;
  let starts = buffers.start;
  let indents = buffers.indent;
  let tabs = buffers.tab;
  let block = -1;
  let special = -1;
  let inFlow = false;
  let flowOwner = -1;
  for (let at = 0; at < n;) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = n;
    let i = at;
    while (i < end && text.charCodeAt(i) === 0x20) i++;
    let j = i;
    while (j < end && (text.charCodeAt(j) === 0x09 || text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x0d)) j++;
    const spaces = i - at;
    const blank = j >= end;
    const comment = !blank && text.charCodeAt(j) === 0x23; /* # */
    if (!blank && !comment) {
      if (count === starts.length) {
        const grow = <T extends Int32Array | Uint8Array>(a: T, b: T): T => (b.set(a), b);
        starts = buffers.start = grow(starts, new Int32Array(count * 2));
        indents = buffers.indent = grow(indents, new Int32Array(count * 2));
        tabs = buffers.tab = grow(tabs, new Uint8Array(count * 2));
      }
      starts[count] = at;
      indents[count] = spaces;
      tabs[count] = i !== j ? 1 : 0;
      count++;
    }
    if (inFlow) {
      if (!blank) {
        if (spaces <= flowOwner) return UNREADABLE;
        if (readFlow(text, at, end) >= 0) inFlow = false;
      }
    } else if (block >= 0 && (blank || spaces > block)) {
      // a line of a block scalar
    } else {
      block = -1;
      if (special < at) {
        OPENERS.lastIndex = at;
        special = OPENERS.exec(text)?.index ?? n;
      }
      // A line without a quote, bracket or block indicator opens nothing.
      if (!blank && !comment && special < end) {
        const state = lineState(text, at, end);
        if (state === LINE_OPENS) {
          inFlow = true;
          flowOwner = openOwner;
        } else if (state >= 0) block = state;
      }
    }
    at = end + 1;
  }
  if (inFlow) return UNREADABLE;
  if (buffers.next.length < count) buffers.next = new Int32Array(starts.length);
  const next = buffers.next;
  // Each line's subtree ends at the first line after it indented no deeper: the lines still open on a stack.
  const open = buffers.open;
  let top = 0;
  for (let k = 0; k < count; k++) {
    next[k] = count;
    while (top > 0 && indents[open[top - 1]] >= indents[k]) next[open[--top]] = k;
    open[top++] = k;
  }
  return { readable: true, count, start: starts, indent: indents, tab: tabs, next };
}

/** What may open a flow node or a block scalar on a line (`lineState` reads only lines holding one). */
const OPENERS = /["'[{|>]/g;

/**
 * The arrays the line table is built in, kept from one document to the next (a table is kept for one document
 * only: `tableOf`), so placing findings in thousands of documents allocates none.
 */
const buffers = {
  start: new Int32Array(256),
  indent: new Int32Array(256),
  tab: new Uint8Array(256),
  next: new Int32Array(256),
  open: [] as number[],
};

/** The line table of the document located in last: findings come in input order, a document's together. */
let tableText: string | undefined;
let table: LineTable | undefined;

function tableOf(text: string): LineTable {
  if (tableText !== text || table === undefined) {
    table = lineTable(text);
    tableText = text;
  }
  return table;
}

/**
 * Lets the kept table go (`releasePositions`).
 * @internal
 */
export function releaseScanTable(): void {
  table = tableText = undefined;
  if (buffers.start.length > 256) {
    buffers.start = new Int32Array(256);
    buffers.indent = new Int32Array(256);
    buffers.tab = new Uint8Array(256);
    buffers.next = new Int32Array(256);
  }
  buffers.open = [];
}

/** The first line after `k` indented no deeper than `column`: past the subtrees of the lines between. */
function nextAt(t: LineTable, k: number, column: number): number {
  let j = k + 1;
  while (j < t.count && t.indent[j] > column) j = t.next[j];
  return j;
}

/** Space or tab, a line break, or the end of the text. */
function wsOrEol(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const c = text.charCodeAt(at);
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** `-` followed by white space or a line break: a block sequence entry. */
function isEntry(text: string, at: number): boolean {
  return text.charCodeAt(at) === 0x2d && wsOrEol(text, at + 1);
}

/**
 * Plain key characters this reader follows (`[A-Za-z0-9_][A-Za-z0-9_./ -]*`): anything else (`:`, `#`, quotes, flow
 * indicators, tabs) is left to the index.
 */
function isKeyStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}
/** Plain words the core schema reads as booleans or null: the key is their string form. */
const PLAIN_WORDS: ReadonlyMap<string, string> = new Map([
  ...['true', 'True', 'TRUE'].map((w) => [w, 'true'] as const),
  ...['false', 'False', 'FALSE'].map((w) => [w, 'false'] as const),
  ...['null', 'Null', 'NULL'].map((w) => [w, 'null'] as const),
]);
/** First characters of PLAIN_WORDS: t, T, f, F, n, N. */
const PLAIN_WORD_STARTS: ReadonlySet<number> = new Set([0x74, 0x54, 0x66, 0x46, 0x6e, 0x4e]);
/** A key starting with a digit is followed only when it is a decimal integer that reads back as written. */
const DECIMAL = /^(?:0|[1-9][0-9]{0,14})$/;

/** Set by `readKey`: the offset after the key's `:`. */
let afterColon = 0;

/**
 * The key (as js-yaml makes it a property name) of the implicit mapping entry at `at`, or undefined when the line
 * is not one this reader follows.
 */
function readKey(text: string, at: number): string | undefined {
  const n = text.length;
  const q = text.charCodeAt(at);
  let key: string;
  let i: number;
  if (q === 0x27 /* ' */ || q === 0x22 /* " */) {
    const quote = q === 0x27 ? "'" : '"';
    key = '';
    i = at + 1;
    for (;;) {
      const close = text.indexOf(quote, i);
      const eol = text.indexOf('\n', i);
      if (close < 0 || (eol >= 0 && eol < close)) return undefined;
      const part = text.slice(i, close);
      if (q === 0x22 && part.includes('\\')) return undefined;
      key += part;
      if (q === 0x27 && text.charCodeAt(close + 1) === 0x27) {
        key += "'";
        i = close + 2;
        continue;
      }
      i = close + 1;
      break;
    }
    while (i < n && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
    if (text.charCodeAt(i) !== 0x3a || !wsOrEol(text, i + 1)) return undefined;
  } else {
    // Plain key characters only (letters, digits, `_`, and `.`, `/`, `-` and spaces after the first), up to `: `.
    if (!isKeyStart(q)) return undefined;
    let last = at;
    for (i = at + 1; ; i++) {
      if (i >= n) return undefined;
      const c = text.charCodeAt(i);
      if (c === 0x3a && wsOrEol(text, i + 1)) break;
      if (c === 0x20) continue;
      if (!isKeyStart(c) && c !== 0x2e && c !== 0x2f && c !== 0x2d) return undefined;
      last = i;
    }
    key = text.slice(at, last + 1);
    if (q >= 0x30 && q <= 0x39 && !DECIMAL.test(key)) return undefined;
    if (PLAIN_WORD_STARTS.has(q)) key = PLAIN_WORDS.get(key) ?? key;
  }
  afterColon = i + 1;
  return key;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Set by `scanMapping` / `scanSequence`: where the wanted key or item starts, where its value starts and on which line. */
let foundAt = -1;
let valueAt = -1;
let valueLine = -1;

/**
 * Sets `valueAt`/`valueLine` to the value of the entry on line `k` whose `:` ends at `from` (a key at `column`):
 * -1 when it is empty. False when this reader does not follow it.
 */
function valueStart(text: string, t: LineTable, k: number, from: number, column: number): boolean {
  const i = skipBlanks(text, from, text.length);
  const c = i < text.length ? text.charCodeAt(i) : 0x0a;
  valueAt = valueLine = -1;
  if (c !== 0x0a && c !== 0x23) {
    valueAt = i;
    valueLine = k;
    return true;
  }
  const j = k + 1;
  if (j >= t.count) return true;
  const at = t.start[j] + t.indent[j];
  if (t.indent[j] > column || (t.indent[j] === column && isEntry(text, at))) {
    if (t.tab[j] === 1) return false;
    valueAt = at;
    valueLine = j;
  }
  return true;
}

/**
 * Reads the block mapping whose first key starts at `at` on line `k` (its indentation: `at`'s column), every
 * entry, checking them against `value`; `foundAt`, `valueAt` and `valueLine` are set for the key `want`. False
 * when it does not read as `value`.
 */
function scanMapping(
  text: string,
  t: LineTable,
  k: number,
  at: number,
  value: Record<string, unknown>,
  want: string,
): boolean {
  const column = at - t.start[k];
  let count = 0;
  foundAt = valueAt = valueLine = -1;
  for (;;) {
    const name = readKey(text, at);
    if (name === undefined || !Object.prototype.hasOwnProperty.call(value, name)) return false;
    count++;
    if (name === want) {
      foundAt = at;
      if (!valueStart(text, t, k, afterColon, column)) return false;
    }
    // A list written at the key's own indentation belongs to the key before it.
    let j = nextAt(t, k, column);
    while (j < t.count && t.indent[j] === column && isEntry(text, t.start[j] + column)) j = nextAt(t, j, column);
    if (j >= t.count || t.indent[j] < column) break;
    if (t.tab[j] === 1) return false;
    k = j;
    at = t.start[j] + column;
  }
  let keys = 0;
  for (const name in value) if (Object.hasOwn(value, name)) keys++;
  return count === keys;
}

/**
 * Reads the block sequence whose first `-` is at `at` on line `k`, every entry, checking their number against
 * `value`; `foundAt` and `valueLine` are set to where item `want` starts (its content, as js-yaml opens its node).
 * False when it does not read as `value`, or an entry is empty.
 */
function scanSequence(
  text: string,
  t: LineTable,
  k: number,
  at: number,
  value: readonly unknown[],
  want: number,
): boolean {
  const column = at - t.start[k];
  let count = 0;
  foundAt = valueLine = -1;
  for (;;) {
    const i = skipBlanks(text, at + 1, text.length);
    const c = i < text.length ? text.charCodeAt(i) : 0x0a;
    let content = i;
    let line = k;
    if (c === 0x0a || c === 0x23) {
      line = k + 1;
      if (line >= t.count || t.indent[line] <= column || t.tab[line] === 1) return false;
      content = t.start[line] + t.indent[line];
    }
    if (count === want) {
      foundAt = content;
      valueLine = line;
    }
    count++;
    const j = nextAt(t, k, column);
    if (j >= t.count || t.indent[j] !== column || t.tab[j] === 1 || !isEntry(text, t.start[j] + column)) break;
    k = j;
    at = t.start[j] + column;
  }
  return count === value.length;
}

/** Skips spaces and tabs from `i`, up to `end`. */
function skipBlanks(text: string, i: number, end: number): number {
  while (i < end && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09 || text.charCodeAt(i) === 0x0d)) i++;
  return i;
}

/** Skips anchors and tags (`&a`, `!!str`) before a value. */
function skipProperties(text: string, i: number, end: number): number {
  while (i < end && (text.charCodeAt(i) === 0x26 || text.charCodeAt(i) === 0x21)) {
    while (i < end && text.charCodeAt(i) !== 0x20 && text.charCodeAt(i) !== 0x09) i++;
    i = skipBlanks(text, i, end);
  }
  return i;
}

/** Inside a quoted scalar or flow collection that may span lines: its open brackets and open quote (or 0). */
let flowDepth = 0;
let flowQuote = 0;
/** Whether a quote here would start a scalar (after `[`, `{`, `,`, `:` or at the start), not sit inside one. */
let flowAtStart = true;

/** Starts reading the quoted scalar or flow collection opening at `i`; see `readFlow`. */
function openFlow(text: string, i: number, end: number): number {
  const c = text.charCodeAt(i);
  flowDepth = 0;
  flowQuote = c === 0x22 || c === 0x27 ? c : 0;
  flowAtStart = true;
  return readFlow(text, flowQuote === 0 ? i : i + 1, end);
}

/** Reads on inside a flow node from `i`: the offset after it closes, or -1 when it is still open at `end`. */
function readFlow(text: string, i: number, end: number): number {
  for (let j = i; j < end; j++) {
    const c = text.charCodeAt(j);
    if (flowQuote === 0x22) {
      if (c === 0x5c /* \ */) j++;
      else if (c === 0x22) {
        flowQuote = 0;
        flowAtStart = false;
        if (flowDepth === 0) return j + 1;
      }
    } else if (flowQuote === 0x27) {
      if (c !== 0x27) continue;
      if (j + 1 < end && text.charCodeAt(j + 1) === 0x27) j++;
      else {
        flowQuote = 0;
        flowAtStart = false;
        if (flowDepth === 0) return j + 1;
      }
    } else if ((c === 0x22 || c === 0x27) && flowAtStart) {
      flowQuote = c;
    } else if (c === 0x5b || c === 0x7b || c === 0x2c /* , */ || c === 0x3a /* : */) {
      if (c !== 0x2c && c !== 0x3a) flowDepth++;
      flowAtStart = true;
    } else if (c === 0x5d || c === 0x7d) {
      flowAtStart = false;
      if (--flowDepth <= 0) return j + 1;
    } else if (c === 0x23 /* # */ && (j === i || text.charCodeAt(j - 1) === 0x20 || text.charCodeAt(j - 1) === 0x09)) {
      return -1; // a comment: the rest of the line
    } else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) {
      flowAtStart = false;
    }
  }
  return -1;
}

/** What `lineState` says of a line whose value neither opens across lines nor starts a block scalar. */
const LINE_CLOSED = -1;
/** What `lineState` says of a line where a quoted scalar or flow collection opens and does not close. */
const LINE_OPENS = -2;
/** Set by `lineState` for LINE_OPENS: the column its next lines must be indented past (its key's, or its `-`'s). */
let openOwner = -1;

function isFlowStart(c: number): boolean {
  return c === 0x22 || c === 0x27 || c === 0x5b || c === 0x7b;
}

/**
 * What the line `[i, end)` opens as a key or value: LINE_OPENS for a quoted scalar or flow collection that does
 * not close on it; for a block scalar (`key: |`, `- >-`), the column of its key or `-`, past which its content lines
 * are indented; LINE_CLOSED otherwise.
 */
function lineState(text: string, i: number, end: number): number {
  const lineStart = i;
  i = skipBlanks(text, i, end);
  // Content that starts the line belongs to a key on a line above, indented less than this line.
  let owner = i - lineStart - 1;
  while (i < end && isEntry(text, i)) {
    owner = i - lineStart;
    i = skipBlanks(text, i + 1, end);
  }
  i = skipProperties(text, i, end);
  let c = text.charCodeAt(i);
  if (c === 0x7c /* | */ || c === 0x3e /* > */) return blockScalar(text, i, end, owner);
  const key = i - lineStart;
  if (isFlowStart(c)) {
    const close = openFlow(text, i, end);
    if (close < 0) {
      openOwner = owner;
      return LINE_OPENS;
    }
    // A quoted key: its value follows the `:`.
    i = skipBlanks(text, close, end);
    if (text.charCodeAt(i) !== 0x3a) return LINE_CLOSED;
    i++;
  } else {
    // A plain key, or plain text (a scalar, or a line of a block scalar): what follows a `: ` may open something.
    // (Read by character within the line: indexOf would search past it, through every line after a line without.)
    for (;;) {
      if (i >= end) return LINE_CLOSED;
      c = text.charCodeAt(i);
      if (c === 0x3a && wsOrEol(text, i + 1)) break;
      if (c === 0x23 /* # */ && (text.charCodeAt(i - 1) === 0x20 || text.charCodeAt(i - 1) === 0x09)) {
        return LINE_CLOSED;
      }
      i++;
    }
    i++;
  }
  i = skipProperties(text, skipBlanks(text, i, end), end);
  c = text.charCodeAt(i);
  if (c === 0x7c || c === 0x3e) return blockScalar(text, i, end, key);
  if (isFlowStart(c) && openFlow(text, i, end) < 0) {
    openOwner = key;
    return LINE_OPENS;
  }
  return LINE_CLOSED;
}

/** A block scalar's header at `i` (`|`, `>-`, `|2 # c`): `column`, past which its content is; else LINE_CLOSED. */
function blockScalar(text: string, i: number, end: number, column: number): number {
  i++;
  while (i < end && /[-+0-9]/.test(text[i])) i++;
  i = skipBlanks(text, i, end);
  return i >= end || text.charCodeAt(i) === 0x23 ? Math.max(column, 0) : LINE_CLOSED;
}

/** Anchors, tags and aliases: what the index (and `yaml`) place. */
function isNodeProperty(c: number): boolean {
  return c === 0x26 /* & */ || c === 0x21 /* ! */ || c === 0x2a; /* * */
}

/** A document as `scanOffset` reads it. */
export interface ScanDocument {
  readonly text: string;
  /** What js-yaml read from the text. */
  readonly value: unknown;
}

/**
 * The offset of the key or item at `segments` in a document's text (from js-yaml's reading of it, `root`), or of
 * its nearest present parent, or the document's content start: what the js-yaml index answers. Undefined when
 * this reader cannot say exactly; the caller then asks the index.
 * @internal
 */
export function scanOffset(doc: ScanDocument, segments: readonly (string | number)[]): number | undefined {
  const text = doc.text;
  const t = tableOf(text);
  if (!t.readable || t.count === 0) return undefined;
  let line = 0;
  if (t.start[0] === 0 && t.indent[0] === 0 && text.startsWith('---') && wsOrEol(text, 3)) {
    // Content on the marker line itself (`--- {a: 1}`, `--- !!map`) is left to the index.
    const i = skipBlanks(text, 3, text.length);
    const c = i < text.length ? text.charCodeAt(i) : 0x0a;
    if (c !== 0x0a && c !== 0x23) return undefined;
    line = 1;
    if (line >= t.count) return undefined;
  }
  if (t.tab[line] === 1) return undefined;
  let offset = t.start[line] + t.indent[line];
  if (isNodeProperty(text.charCodeAt(offset))) return undefined;
  let value = doc.value;
  let node = offset;
  for (const seg of segments) {
    if (node < 0) break; // an empty value: the key before is where it is
    const c = text.charCodeAt(node);
    if (isNodeProperty(c) || c === 0x7b /* { */ || c === 0x5b /* [ */) return undefined;
    if (Array.isArray(value)) {
      if (!isEntry(text, node)) return undefined;
      const index = typeof seg === 'number' && seg < value.length ? seg : -1;
      // Read whole even when the item is absent, to check the list is the one js-yaml read.
      if (!scanSequence(text, t, line, node, value, index)) return undefined;
      if (index < 0) break;
      offset = node = foundAt;
      line = valueLine;
      value = value[index];
    } else if (isPlainObject(value)) {
      if (isEntry(text, node)) return undefined;
      const want = String(seg);
      if (!scanMapping(text, t, line, node, value, want)) return undefined;
      if (foundAt < 0) break;
      offset = foundAt;
      node = valueAt;
      line = valueLine;
      value = value[want];
    } else {
      break;
    }
  }
  return isNodeProperty(text.charCodeAt(offset)) ? undefined : offset;
}
