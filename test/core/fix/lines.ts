/**
 * Line-by-line checks of `fix` output: a diff of input and output lines, and which of the changed lines no reported
 * change explains. A changed line is explained by a change of its object when the node on that line sits inside
 * the changed path (`spec.os.name` for `name: windows`), or is a parent of it that the change created or removed
 * (`os:` above it), or the flow collection on that line the changed key is written into. A line whose only change
 * is a trailing comma (JSON and flow items), and a key moved up behind its list item's dash when the key before it
 * was removed, are explained too.
 */
import { isMap, isNode, isScalar, isSeq, LineCounter, parseAllDocuments } from 'yaml';
import type { FixChange } from 'k8s-windows';

type Seg = string | number;

/** The lines of a text (BOM dropped; a CRLF line keeps its `\r`, so a changed line ending shows). */
export function linesOf(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split('\n');
}

/**
 * Indices of the lines removed from `a` and added in `b`, as a patience diff: lines found once in each text anchor
 * the alignment (so a moved block of `]` and `}` lines is not matched with another's), and the stretches between
 * anchors are aligned by longest common subsequence, matching lines as early as it can.
 */
export function diffLines(a: readonly string[], b: readonly string[]): { removed: number[]; added: number[] } {
  const removed: number[] = [];
  const added: number[] = [];
  const stretch = (a0: number, a1: number, b0: number, b1: number): void => {
    const anchors = uniqueAnchors(a, a0, a1, b, b0, b1);
    if (anchors.length === 0) {
      lcsDiff(a, a0, a1, b, b0, b1, removed, added);
      return;
    }
    let i = a0;
    let j = b0;
    for (const [ai, bj] of anchors) {
      stretch(i, ai, j, bj);
      i = ai + 1;
      j = bj + 1;
    }
    stretch(i, a1, j, b1);
  };
  stretch(0, a.length, 0, b.length);
  return { removed: removed.sort((x, y) => x - y), added: added.sort((x, y) => x - y) };
}

/** Lines with words found exactly once in each range, as `[i, j]` pairs, the longest run increasing in both. */
function uniqueAnchors(
  a: readonly string[],
  a0: number,
  a1: number,
  b: readonly string[],
  b0: number,
  b1: number,
): [number, number][] {
  const count = (lines: readonly string[], from: number, to: number) => {
    const m = new Map<string, number>();
    for (let k = from; k < to; k++) m.set(lines[k], m.has(lines[k]) ? -1 : k);
    return m;
  };
  const inA = count(a, a0, a1);
  const inB = count(b, b0, b1);
  const pairs: [number, number][] = [];
  for (const [line, i] of inA) {
    const j = inB.get(line);
    // Only lines with words in them: a lone `{` or `],` is unique by chance, not by content.
    if (i >= 0 && j !== undefined && j >= 0 && /[\p{L}\p{N}]/u.test(line)) pairs.push([i, j]);
  }
  pairs.sort((x, y) => x[0] - y[0]);
  // Longest increasing subsequence by j (patience sorting).
  const tails: number[] = [];
  const prev = new Array<number>(pairs.length).fill(-1);
  pairs.forEach(([, j], k) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1];
    tails[lo] = k;
  });
  const out: [number, number][] = [];
  for (let k = tails.length > 0 ? tails[tails.length - 1] : -1; k >= 0; k = prev[k]) out.unshift(pairs[k]);
  return out;
}

/** Aligns `a[a0..a1)` with `b[b0..b1)` by longest common subsequence, pushing what is removed and added. */
function lcsDiff(
  a: readonly string[],
  a0: number,
  a1: number,
  b: readonly string[],
  b0: number,
  b1: number,
  removed: number[],
  added: number[],
): void {
  const n = a1 - a0;
  const m = b1 - b0;
  // lcs[i][j]: the longest common subsequence of a[a0 + i..a1) and b[b0 + j..b1).
  const lcs = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[a0 + i] === b[b0 + j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[a0 + i] === b[b0 + j]) {
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) removed.push(a0 + i++);
    else added.push(b0 + j++);
  }
}

interface Owner {
  /** The object's `metadata.name` ('' for the lines of a `List` around its items). */
  readonly name: string;
  readonly path: readonly Seg[];
  /** Its value is a flow collection that opens on this line: a key written into it or taken out changes the line. */
  readonly flow?: boolean;
}

interface Mapped {
  /** Per line: the nodes that start on it, or else the innermost node holding it. */
  readonly owners: Owner[][];
  /** The objects by name, as plain values. */
  readonly objects: ReadonlyMap<string, unknown>;
}

function nameOf(value: unknown): string {
  const meta = (value as { metadata?: { name?: unknown } } | null)?.metadata;
  return typeof meta?.name === 'string' ? meta.name : '';
}

function mapLines(text: string): Mapped {
  const body = text.replace(/^\uFEFF/, '');
  const lc = new LineCounter();
  const docs = parseAllDocuments(body, { lineCounter: lc, merge: true });
  const count = body.split('\n').length;
  const starts: Owner[][] = Array.from({ length: count }, () => []);
  const inside: (Owner | undefined)[] = new Array<Owner | undefined>(count);
  const objects = new Map<string, unknown>();
  const lineOf = (offset: number) => lc.linePos(offset).line - 1;
  const walk = (node: unknown, owner: Owner, list: readonly unknown[] | undefined): void => {
    if (!isNode(node) || !node.range) return;
    const last = lineOf(Math.max(node.range[0], node.range[1] - 1));
    for (let l = lineOf(node.range[0]); l <= last; l++) inside[l] = owner;
    const child = (key: Seg, at: number | undefined, value: unknown) => {
      const flow =
        at !== undefined && (isMap(value) || isSeq(value)) && value.flow === true && value.range
          ? lineOf(value.range[0]) === lineOf(at)
          : false;
      const own: Owner = { name: owner.name, path: [...owner.path, key], flow };
      if (at !== undefined) starts[lineOf(at)].push(own);
      walk(value, own, undefined);
    };
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const at = isNode(pair.key) ? pair.key.range?.[0] : undefined;
        if (list && key === 'items' && isSeq(pair.value)) {
          if (at !== undefined) starts[lineOf(at)].push({ name: '', path: ['items'] });
          walk(pair.value, { name: '', path: ['items'] }, undefined);
          pair.value.items.forEach((item, i) => {
            const name = nameOf(list[i]);
            objects.set(name, list[i]);
            walk(item, { name, path: [] }, undefined);
          });
        } else child(String(key), at, pair.value);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => child(i, isNode(item) ? item.range?.[0] : undefined, item));
    }
  };
  for (const doc of docs) {
    const value = doc.toJS() as { kind?: unknown; items?: unknown } | null;
    const list = value?.kind === 'List' && Array.isArray(value.items) ? (value.items as unknown[]) : undefined;
    if (!list) objects.set(nameOf(value), value);
    walk(doc.contents, { name: list ? '' : nameOf(value), path: [] }, list);
  }
  return {
    owners: starts.map((s, l) => (s.length > 0 ? s : inside[l] ? [inside[l] as Owner] : [])),
    objects,
  };
}

/** `spec.template.spec.nodeSelector[kubernetes.io/os]` as segments. */
export function segmentsOf(path: string): Seg[] {
  const out: Seg[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (m[2] !== undefined) out.push(/^\d+$/.test(m[2]) ? Number(m[2]) : m[2]);
    else out.push(m[1]);
  }
  return out;
}

const startsWith = (path: readonly Seg[], prefix: readonly Seg[]) =>
  prefix.length <= path.length && prefix.every((s, i) => String(s) === String(path[i]));

function valueAt(objects: ReadonlyMap<string, unknown>, owner: Owner): unknown {
  let v = objects.get(owner.name);
  for (const seg of owner.path) v = typeof v === 'object' && v !== null ? (v as Record<Seg, unknown>)[seg] : undefined;
  return v;
}

const isCollection = (v: unknown) => typeof v === 'object' && v !== null;
const isEmpty = (v: unknown) => Object.keys(v as object).length === 0;

/**
 * The changed lines of `after` against `before` that no change explains, as `- 12: text` (removed, 1-based line
 * of `before`) and `+ 13: text` (added, line of `after`): empty when every changed line is explained.
 */
export function unexplainedLines(before: string, after: string, changes: readonly FixChange[]): string[] {
  const a = linesOf(before);
  const b = linesOf(after);
  const { removed, added } = diffLines(a, b);
  const was = mapLines(before);
  const now = mapLines(after);
  const changesOf = (o: Owner) => changes.filter((c) => c.resource.name === o.name);
  const explained = (owners: readonly Owner[], line: string) =>
    owners.some((o) =>
      changesOf(o).some((c) => {
        const path = segmentsOf(c.path);
        if (startsWith(o.path, path)) return true;
        // A list item changed, or holding the change: the items after it may move up, or read the same, and
        // identical items cannot say which one changed.
        const listSibling = path.some((seg, p) => {
          const at = o.path[p];
          return typeof seg === 'number' && typeof at === 'number' && at >= seg && startsWith(o.path, path.slice(0, p));
        });
        if (listSibling) return true;
        if (!startsWith(path, o.path)) return false;
        // A parent of the change: when the change made it or took it away (or turned a scalar into it), emptied
        // it or filled it (`[]` and `{}` are written on its key's line), or when it is a flow collection on this
        // line that the change writes a key into or takes one out of.
        const before = valueAt(was.objects, o);
        const after = valueAt(now.objects, o);
        if (!isCollection(before) || !isCollection(after) || isEmpty(before) !== isEmpty(after)) return true;
        // Brackets alone on a line inside the changed collection: which `}` went is a matter of alignment.
        if (!/[\p{L}\p{N}]/u.test(line)) return true;
        const child = { name: o.name, path: path.slice(0, o.path.length + 1) };
        const childKept = valueAt(was.objects, child) !== undefined && valueAt(now.objects, child) !== undefined;
        return o.flow === true && (path.length === o.path.length + 1 || !childKept);
      }),
    );
  const ok = new Set<string>();
  // A line the diff could only align as removed here and added there, with the same bytes for the same nodes, is
  // unchanged (a replaced block above it matched lines of a new one).
  const ownersKey = (owners: readonly Owner[] | undefined) =>
    JSON.stringify((owners ?? []).map((o) => [o.name, o.path.map(String)]));
  for (const i of removed) {
    const j = added.find(
      (k) => !ok.has(`+${k}`) && b[k] === a[i] && ownersKey(now.owners[k]) === ownersKey(was.owners[i]),
    );
    if (j !== undefined) ok.add(`-${i}`).add(`+${j}`);
  }
  // The key after a removed first key of a list item moves up behind the item's dash.
  for (const j of added) {
    const m = /^\s*- ([^]*)$/.exec(b[j]);
    const i = m ? removed.find((r) => !ok.has(`-${r}`) && a[r].trim() === m[1].trim()) : undefined;
    const item = (now.owners[j] ?? []).find((o) => typeof o.path[o.path.length - 1] === 'number');
    const byRemoval =
      item !== undefined &&
      changesOf(item).some((c) => c.action === 'removed' && startsWith(segmentsOf(c.path), item.path));
    if (i !== undefined && byRemoval) ok.add(`-${i}`).add(`+${j}`);
  }
  // The last line of a text without a final line break gains one (CRLF) when lines are added after it.
  const last = a.length - 1;
  const gained = added.find((j) => b[j] === `${a[last]}\r`);
  if (!before.endsWith('\n') && removed.includes(last) && gained !== undefined) ok.add(`-${last}`).add(`+${gained}`);
  // A line that only gains or loses a trailing comma (before a comment ending the line, if any), as JSON and flow
  // items do when an item after them comes or goes.
  const bare = (l: string) => l.replace(/,([ \t]*(?:#.*)?\r?)$/, '$1');
  const commaTwin = (l: string, others: readonly string[]) => others.some((o) => o !== l && bare(o) === bare(l));
  for (const i of removed) if (commaTwin(a[i], b)) ok.add(`-${i}`);
  for (const j of added) if (commaTwin(b[j], a)) ok.add(`+${j}`);
  return [
    ...removed
      .filter((i) => !ok.has(`-${i}`) && !explained(was.owners[i] ?? [], a[i]))
      .map((i) => `- ${i + 1}: ${a[i]}`),
    ...added.filter((j) => !ok.has(`+${j}`) && !explained(now.owners[j] ?? [], b[j])).map((j) => `+ ${j + 1}: ${b[j]}`),
  ];
}
