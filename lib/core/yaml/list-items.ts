/**
 * Where each item of a `List` document (a KRM ResourceList, a `v1 List`) sits in its text, found from the lines
 * alone: `fixManifestSet` then fixes the items one by one, as it does the documents of a stream, and builds a `yaml`
 * node tree only for an item it edits. A ResourceList of thousands of items is one document: its whole node tree
 * (and the read-back of the whole list) cost `fix --krm` several times what `fix` takes on the same objects.
 */

/** The items of one List document, each from its dash line to the next one's. */
export interface ListItems {
  /**
   * The `items:` line with its line break: put in front of an item's text, it parses as the List with that one
   * item, at the item's own columns (the key's and the dash's), so the item reads as it does in place.
   */
  readonly prefix: string;
  /** Where each item's text starts: the start of its dash line. */
  readonly starts: readonly number[];
  /** Where the last item's text ends: the start of the line after the sequence (another key), or the document's end. */
  readonly end: number;
}

/**
 * The items of the List document `text.slice(start, end)`, or undefined unless it is a block mapping whose `items:`
 * (a plain key on a line of its own) holds a block sequence of exactly `count` entries, each starting with a dash
 * at one column, everything else indented deeper. Any other shape (flow `items`, a tag, tabs for indentation, a
 * root written otherwise) is left to the whole-document path; so is a count that differs from what the loader
 * read, as a line that looks like an entry inside a scalar would make it.
 */
export function splitListItems(text: string, start: number, end: number, count: number): ListItems | undefined {
  let root = -1;
  let prefix: string | undefined;
  /** The column of the entries' dashes, once the first one is seen. */
  let dash = -1;
  const starts: number[] = [];
  for (let pos = start; pos < end;) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 || nl >= end ? end : nl;
    const next = lineEnd === end ? end : lineEnd + 1;
    let i = pos;
    while (i < lineEnd && text.charCodeAt(i) === 0x20) i++;
    const ch = i < lineEnd ? text[i] : '\n';
    if (ch === '\t') return undefined;
    const indent = i - pos;
    const blank = ch === '\n' || (ch === '\r' && i + 1 === lineEnd);
    if (pos === start && text.startsWith('---', pos)) {
      // The document's start line: nothing but a comment may follow the marker.
      if (!restIsEmpty(text, pos + 3, lineEnd, true)) return undefined;
      pos = next;
      continue;
    }
    if (blank || ch === '#') {
      pos = next;
      continue;
    }
    if (prefix === undefined) {
      if (root < 0) {
        // The root must be a block mapping with plain keys: a flow collection, a tag, an anchor, a quoted or
        // explicit key is read whole.
        if ('{[-!&*?|>"\'%@`'.includes(ch)) return undefined;
        root = indent;
      }
      if (indent < root) return undefined;
      if (indent === root && text.startsWith('items:', i) && restIsEmpty(text, i + 6, lineEnd, false)) {
        prefix = text.slice(pos, next);
      }
    } else if (dash < 0) {
      // The first entry: a block sequence at the key's column or deeper.
      if (indent < root || !isEntry(text, i, lineEnd)) return undefined;
      dash = indent;
      starts.push(pos);
    } else if (indent > dash) {
      // Inside the current item.
    } else if (indent === dash && isEntry(text, i, lineEnd)) {
      starts.push(pos);
    } else {
      // The sequence ends at a key of the root mapping; anything else is read whole.
      if (indent !== root) return undefined;
      return starts.length === count ? { prefix, starts, end: pos } : undefined;
    }
    pos = next;
  }
  return prefix !== undefined && starts.length === count && count > 0 ? { prefix, starts, end } : undefined;
}

/** Whether a sequence entry starts at `i`: a dash followed by white space or the line's end. */
function isEntry(text: string, i: number, lineEnd: number): boolean {
  if (text[i] !== '-') return false;
  const after = text[i + 1];
  return i + 1 >= lineEnd || after === ' ' || after === '\t' || after === '\r';
}

/**
 * Whether only white space and a comment (or, with `bare`, nothing at all but the line break) follow `from` on its
 * line; a comment needs white space before it.
 */
function restIsEmpty(text: string, from: number, lineEnd: number, bare: boolean): boolean {
  const rest = text.slice(from, lineEnd);
  if (bare && rest !== '' && !/^[ \t\r]/.test(rest)) return false;
  return /^(?:[ \t]+#.*|[ \t]*)\r?$/.test(rest);
}
