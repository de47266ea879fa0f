/**
 * The edits written from a plain block document's lines (direct.ts) against the same edits made on the `yaml` node
 * tree and spliced (document.ts, splice.ts): random objects written block style (indent 2 or 4, lists flush or
 * indented under their key, with or without a `---` line and a final line break), random set / remove / append
 * edits (missing parents, list items, securityContext shells). Wherever the lines path answers, the node tree makes
 * every edit too, with the same results and the same text, byte for byte. Then the whole fix on the fixtures, with
 * and without the lines path: the same texts, changes, refusals and findings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { Document, stringify } from 'yaml';
import { loadAll } from 'js-yaml';
import { benchManifest } from '../../../bench/manifests';
import { fixManifestSet, type FixOptions } from '../../../lib/core/fix';
import { applyEdit, checkEdit, parseText, renderText, styleOf } from '../../../lib/core/yaml/document';
import { directEdits } from '../../../lib/core/yaml/direct';
import { readWhole } from '../../../lib/core/yaml/loader';
import type { FixEdit } from '../../../lib/core/model/fixes';
import { propertyParameters } from '../../helpers/property';

const KEYS = ['a', 'b', 'name', 'kubernetes.io/os', 'securityContext', 'tolerations'] as const;
const scalar = fc.oneof(
  fc.constantFrom(
    'windows',
    'Windows',
    'has space',
    'a: b',
    '10',
    'true',
    '',
    'NT AUTHORITY\\system',
    'C:\\app',
    '--queue',
    '-1',
    '- x',
    '-',
  ),
  fc.integer({ min: 0, max: 70000 }),
  fc.boolean(),
  fc.constant(null),
);
// Lists of lists (`- - a`) are left to the node tree; a few stay to show it.
const { value } = fc.letrec<{ value: unknown; item: unknown; map: Record<string, unknown>; list: unknown[] }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: scalar, weight: 3 },
      { arbitrary: tie('map'), weight: 3 },
      { arbitrary: tie('list'), weight: 1 },
    ),
    item: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: scalar, weight: 3 },
      { arbitrary: tie('map'), weight: 8 },
      { arbitrary: tie('list'), weight: 1 },
    ),
    map: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { minKeys: 1, maxKeys: 4 }),
    list: fc.array(tie('item'), { minLength: 1, maxLength: 3 }),
  }),
);
const spec = fc.dictionary(fc.constantFrom(...KEYS), value, { minKeys: 1, maxKeys: 5 });

const segment = fc.oneof(fc.constantFrom(...KEYS), fc.constantFrom(0, 1));
const edit = fc.record({
  op: fc.constantFrom('set', 'remove', 'remove', 'append', 'append'),
  path: fc.array(segment, { minLength: 1, maxLength: 4 }),
  value: fc.oneof(scalar, fc.dictionary(fc.constantFrom(...KEYS), scalar, { minKeys: 1, maxKeys: 3 })),
});

/** An edit aimed at what the object holds: a key added under one of its maps, a list appended to, a key removed. */
const aimed = fc.record({
  kind: fc.constantFrom('add', 'add-deep', 'append', 'append-new', 'remove', 'remove'),
  n: fc.nat(),
  key: fc.constantFrom(...KEYS),
  key2: fc.constantFrom(...KEYS),
  value: fc.oneof(scalar, fc.dictionary(fc.constantFrom(...KEYS), scalar, { minKeys: 1, maxKeys: 3 })),
});

const input = fc.record({
  spec,
  indent: fc.constantFrom(2, 4),
  indentSeq: fc.boolean(),
  start: fc.boolean(),
  finalBreak: fc.boolean(),
  /** Written as the one item of a List, its edits made on the item read under the `items:` line. */
  asItem: fc.boolean(),
  edits: fc.array(fc.oneof(aimed, aimed, aimed, edit), { minLength: 1, maxLength: 3 }),
});

type Segments = (string | number)[];

/** The paths of the maps and lists inside `value` (`[]` for the root). */
function collections(value: unknown, at: Segments = []): { maps: Segments[]; lists: Segments[] } {
  const out = { maps: [] as Segments[], lists: [] as Segments[] };
  if (Array.isArray(value)) {
    out.lists.push(at);
    value.forEach((v, k) => {
      const inner = collections(v, [...at, k]);
      out.maps.push(...inner.maps);
      out.lists.push(...inner.lists);
    });
  } else if (value !== null && typeof value === 'object') {
    out.maps.push(at);
    for (const [k, v] of Object.entries(value)) {
      const inner = collections(v, [...at, k]);
      out.maps.push(...inner.maps);
      out.lists.push(...inner.lists);
    }
  }
  return out;
}

type Aimed = { kind: string; n: number; key: string; key2: string; value: unknown };
type Random = { op: string; path: Segments; value: unknown };

/** The edit an input names, on the object `specValue`. */
function editOf(e: Aimed | Random, specValue: unknown): { op: string; path: Segments; value: unknown } {
  if ('op' in e) return e;
  const { maps, lists } = collections(specValue);
  const map = maps[e.n % maps.length];
  switch (e.kind) {
    case 'add':
      return { op: 'set', path: [...map, e.key], value: e.value };
    case 'add-deep':
      return { op: 'set', path: [...map, e.key, e.key2], value: e.value };
    case 'append':
      return lists.length > 0
        ? { op: 'append', path: lists[e.n % lists.length], value: e.value }
        : { op: 'append', path: [...map, e.key], value: e.value };
    case 'append-new':
      return { op: 'append', path: [...map, e.key], value: e.value };
    default: {
      const held = map.reduce<unknown>((v, seg) => (v as Record<string | number, unknown>)[seg], specValue);
      const keys = Object.keys(held as object);
      return { op: 'remove', path: [...map, keys[e.n % keys.length] ?? e.key], value: undefined };
    }
  }
}

function pathText(segments: readonly (string | number)[]): string {
  return ['spec', ...segments]
    .map((s, i) => (typeof s === 'number' || /[.[\] ]/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

function toEdit(e: { op: string; path: (string | number)[]; value: unknown }): FixEdit {
  const p = pathText(e.path);
  return e.op === 'remove' ? { op: 'remove', path: p } : { op: e.op as 'set' | 'append', path: p, value: e.value };
}

/** The node tree's way: every edit checked, then made, then the document spliced (or re-rendered). */
function viaTree(text: string, edits: readonly FixEdit[], base: readonly (string | number)[]) {
  const parsed = parseText(text);
  const d = parsed.docs[0];
  if (edits.some((e) => checkEdit(d.doc, base, e) !== undefined)) return 'refused' as const;
  const results: unknown[] = [];
  let changed = false;
  for (const e of edits) {
    const r = applyEdit(d.doc, base, e);
    if (!r.ok) return 'refused' as const;
    if (!(e.op === 'set' && r.previous === e.value)) changed = true;
    results.push(r.previous);
  }
  d.changed = changed;
  return { text: renderText(parsed), results, changed };
}

const stats = { runs: 0, direct: 0, changed: 0 };
afterAll(() => {
  if (process.env.DIRECT_PROPERTY_STATS) console.log(stats);
});

describe('edits written from the lines', () => {
  it('write what the node tree writes, wherever they answer', () => {
    fc.assert(
      fc.property(input, (i) => {
        const obj = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' }, spec: i.spec };
        const style = { indent: i.indent, indentSeq: i.indentSeq, lineWidth: 0 };
        let text = new Document(i.asItem ? { kind: 'List', items: [obj] } : obj).toString(style);
        if (i.start) text = `---\n${text}`;
        if (!i.finalBreak) text = text.replace(/\n$/, '');
        const edits = i.edits.map((e) => toEdit(editOf(e as Aimed | Random, i.spec)));
        stats.runs++;
        const value = readWhole(text) as { items: unknown[] };
        // An item: its text after the `items:` line, read under it as the List of that one item.
        const itemAt = text.indexOf('\nitems:\n') + 8;
        const direct = i.asItem
          ? directEdits(text.slice(itemAt), value.items[0], edits, styleOf(text), 'items:\n')
          : directEdits(text, value, edits, undefined);
        if (direct === undefined) return;
        stats.direct++;
        // What it says the result reads as (without reading it again) is what js-yaml reads (prototypes aside: the
        // generated values may have none).
        expect(readWhole(i.asItem ? `items:\n${direct.text}` : direct.text)).toEqual(direct.value);
        const tree = viaTree(text, edits, i.asItem ? ['items', 0] : []);
        expect(tree).not.toBe('refused');
        if (tree === 'refused') return;
        if (tree.changed) stats.changed++;
        expect(direct.results.map((r) => r.previous)).toEqual(tree.results);
        const written = i.asItem ? text.slice(0, itemAt) + direct.text : direct.text;
        expect(tree.changed ? written : text).toBe(tree.text);
      }),
      propertyParameters(500),
    );
    // The lines path answers for most of these documents: the property is not vacuous.
    expect(stats.direct).toBeGreaterThan(stats.runs / 8);
    expect(stats.changed).toBeGreaterThan(stats.runs / 10);
  });
});

describe('fix with and without the lines path', () => {
  const dirs = ['realworld', 'fix'].map((d) => path.join(__dirname, '../../fixtures', d));
  const files = dirs.flatMap((d) =>
    readdirSync(d)
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      .map((f) => path.join(d, f)),
  );
  const optionSets: FixOptions[] = [
    {},
    { cloud: 'gke', windowsRelease: '2022', pinLinux: true },
    { cloud: 'aks', windowsRelease: '2019', runtimeClassName: 'rc' },
  ];
  it.each(optionSets.map((o) => [JSON.stringify(o), o] as const))(
    'gives the same result on the fixtures, %s',
    (_, options) => {
      const inputs = files.map((f) => ({ text: readFileSync(f, 'utf8'), source: path.basename(f) }));
      // Each file alone (its own set) and all of them as one set.
      for (const one of inputs) {
        expect(fixManifestSet([one], options)).toEqual(
          fixManifestSet([one], options, { direct: false, reuse: false, narrow: false }),
        );
      }
      expect(fixManifestSet(inputs, options)).toEqual(
        fixManifestSet(inputs, options, { direct: false, reuse: false, narrow: false }),
      );
    },
  );

  it('gives the same result on the bench manifest, as a stream and as a List (flush and indented items)', () => {
    const stream = benchManifest(300);
    const items = (loadAll(stream) as unknown[]).filter((o) => o !== null);
    const texts = [
      stream,
      ...[true, false].map((indentSeq) =>
        stringify({ apiVersion: 'v1', kind: 'List', items }, { indentSeq, lineWidth: 0 }),
      ),
    ];
    const options: FixOptions = { cloud: 'gke', windowsRelease: '2022', pinLinux: true };
    for (const text of texts) {
      const fast = fixManifestSet([{ text }], options);
      expect(fast.changes.length).toBeGreaterThan(100);
      expect(fast).toEqual(fixManifestSet([{ text }], options, { direct: false, reuse: false, narrow: false }));
    }
  });
});
