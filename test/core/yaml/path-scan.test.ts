/**
 * `scanOffset` (a finding's field placed from the lines along its path) answers what js-yaml's node index answers,
 * or nothing: on every field of the real-world corpus (and for nearly all of them), on the forms it follows and
 * those it must leave to the index, and on generated documents in every style `yaml` writes, where the positions
 * are also held to the `yaml` path's (as fast-load.test.ts and fast-load.property.test.ts do, through it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { Document, isMap, isSeq, visit, type ToStringOptions } from 'yaml';
import {
  fastDocumentOf,
  indexOffsets,
  loadManifestsWithErrors,
  parsePath,
  sourcePosition,
} from '../../../lib/core/yaml/loader';
import { scanOffset } from '../../../lib/core/yaml/path-scan';
import { propertyParameters } from '../../helpers/property';
import { fieldPaths } from './field-paths';

const CORPUS = path.join(__dirname, '../../fixtures/realworld');

/** Every field of every object of `text` (and one absent field per mapping), scanned and indexed. */
function compare(text: string): { answered: number; total: number } {
  let answered = 0;
  let total = 0;
  for (const o of loadManifestsWithErrors(text).objects) {
    const fast = fastDocumentOf(o as object);
    if (fast === undefined) continue;
    const { doc, base } = fast;
    const indexed = indexOffsets(doc.text);
    for (const p of ['', ...fieldPaths(o)]) {
      const segments = [...base, ...parsePath(p)];
      const scanned = scanOffset(doc, segments);
      total++;
      if (scanned === undefined) continue;
      answered++;
      expect([p, scanned]).toEqual([p, indexed(segments)]);
    }
  }
  return { answered, total };
}

describe('scanOffset', () => {
  const files = readdirSync(CORPUS).filter((f) => /\.(ya?ml|json)$/.test(f));

  test('answers as the index on every field of the real-world corpus, and for nearly all of them', () => {
    let answered = 0;
    let total = 0;
    for (const file of files) {
      const r = compare(readFileSync(path.join(CORPUS, file), 'utf8'));
      answered += r.answered;
      total += r.total;
    }
    // The corpus is block style: the index is built for the few fields behind an anchor, a flow collection or JSON.
    expect(answered / total).toBeGreaterThan(0.9);
  });
});

/** Every field of every object of `text`, both ways: the fast path (through scanOffset) and the `yaml` path. */
function sameAsYaml(text: string): void {
  const fast = loadManifestsWithErrors(text, 'f.yaml');
  const slow = loadManifestsWithErrors(text, 'f.yaml', { fast: false });
  expect(fast).toEqual(slow);
  fast.objects.forEach((o, i) => {
    for (const p of ['', ...fieldPaths(o)]) {
      expect([p, sourcePosition(o, p)]).toEqual([p, sourcePosition(slow.objects[i], p)]);
    }
  });
}

/** Whether scanOffset answers for the field `path` of the first object of `text`. */
function answers(text: string, path: string): boolean {
  const [o] = loadManifestsWithErrors(text).objects;
  const fast = fastDocumentOf(o as object)!;
  return scanOffset(fast.doc, [...fast.base, ...parsePath(path)]) !== undefined;
}

describe('scanOffset on the forms it follows and those it leaves to the index', () => {
  const FOLLOWED: Record<string, [string, string]> = {
    'compact list under a key': [
      'kind: A\nspec:\n  containers:\n  - name: a\n    image: b\n',
      'spec.containers[0].image',
    ],
    'indented list': ['kind: A\nspec:\n  containers:\n    - name: a\n      image: b\n', 'spec.containers[0].image'],
    'entry content on the next line': ['kind: A\nl:\n-\n  a: 1\n- # c\n  a: 2\n', 'l[1].a'],
    'nested entries': ['kind: A\nl:\n- - a: 1\n  - a: 2\n', 'l[0][1].a'],
    'comments and blank lines between keys': ['kind: A\n\n# c\nspec: # d\n\n  # e\n  a: 1\n', 'spec.a'],
    'quoted keys': ["kind: A\n\"spec\": \n  'it''s': 1\n", "spec[it's]"],
    'plain words as keys': ['kind: A\nm:\n  true: 1\n  False: 2\n  80: 3\n', 'm.80'],
    'block scalars that look like keys': ['kind: A\ndata:\n  s: |\n    spec: x\n    - y\n  t: 1\n', 'data.t'],
    'JSON in a block scalar': ['kind: A\ndata:\n  j: |\n    {\n      "a": [\n    }\n  k: 1\n', 'data.k'],
    'a tab in a block scalar': ['kind: A\ndata:\n  s: |\n    \tx\n  t: 1\n', 'data.t'],
    'a multi-line flow list indented past its key': ['kind: A\nargs:\n  [\n    a,\n    "b"\n  ]\nz: 1\n', 'z'],
    'CRLF line ends': ['kind: A\r\nspec:\r\n  a: 1\r\n', 'spec.a'],
    'an absent field': ['kind: A\nspec:\n  a: 1\n', 'spec.b.c'],
    'the marker line with a comment': ['--- # c\nkind: A\nspec: {a: 1}\n', 'spec'],
  };
  test.each(Object.entries(FOLLOWED))('%s: followed, and placed as yaml places it', (_name, [text, path]) => {
    expect(answers(text, path)).toBe(true);
    sameAsYaml(text);
  });

  const LEFT: Record<string, [string, string]> = {
    // js-yaml reads these as one value; the continued line would read as a key or entry.
    'a quoted scalar continued at a shallower line': ['kind: A\nx:\n  a: "p\n  b: q\nr"\n  b: 1\n', 'x.b'],
    'a flow list continued at a shallower line': ['kind: A\nx:\n  a: [1,\n  b]\n  b: 1\n', 'x.b'],
    'a flow mapping as the value followed': ['kind: A\nspec: {a: {b: 1}}\n', 'spec.a.b'],
    'an anchored value followed': ['kind: A\nspec: &s\n  a: 1\n', 'spec.a'],
    'a tagged root': ['--- !!map\nkind: A\n', 'kind'],
    'a merge key': ['kind: A\nb: &b {x: 1}\nspec:\n  <<: *b\n  y: 2\n', 'spec.y'],
    'a lone carriage return': ['kind: A\nspec:\r  a: 1\n', 'spec'],
    'an escape in a quoted key': ['kind: A\nm:\n  "a\\tb": 1\n', 'm.x'],
    'a key that may not read as written': ['kind: A\nm:\n  010: 1\n', 'm.x'],
    'an empty list entry': ['kind: A\nl:\n-\n- a\n', 'l[1]'],
    JSON: ['{"kind": "A", "spec": {"a": 1}}\n', 'spec.a'],
  };
  test.each(Object.entries(LEFT))('%s: left to the index, and placed as yaml places it', (_name, [text, path]) => {
    expect(answers(text, path)).toBe(false);
    // The yaml path may refuse what js-yaml reads leniently; where both read it, they agree.
    const slow = loadManifestsWithErrors(text, 'f.yaml', { fast: false });
    if (slow.errors.length === 0) sameAsYaml(text);
  });
});

/** The character-by-character reading parsePath had, to hold the slicing one to it. */
function parsePathByCharacter(path: string): (string | number)[] {
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
      out.push(/^\d+$/.test(inner) ? Number(inner) : parsePath(`[${inner}]`)[0]);
      i = end < 0 ? path.length : end;
    } else {
      cur += c;
    }
  }
  if (cur !== '') out.push(cur);
  return out;
}

describe('generated documents and paths', () => {
  test('parsePath splits every path as the character-by-character reading did', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.[\]"/-]{0,16}$/), (path) => {
        expect(parsePath(path)).toEqual(parsePathByCharacter(path));
      }),
      propertyParameters(300),
    );
  });

  const key = fc.oneof(
    fc.constantFrom('kind', 'spec', 'a', 'b', 'a b', 'true', 'null', '80', '010', "it's", 'x:y', '#c', '<<'),
    fc.string({ minLength: 1, maxLength: 5 }),
  );
  const scalar = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.integer(),
    fc.constantFrom('a: b', '- x', '"q', "'s", '[1,', '{a', 'line\nbreak', '  lead', '#c', 'x # y', '|', '> z'),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
    list: fc.array(tie('node'), { maxLength: 3 }),
    map: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  })).map;

  test('scanOffset answers as the index, and positions as the yaml path, in every style yaml writes', () => {
    fc.assert(
      fc.property(
        value,
        fc.record({
          indent: fc.constantFrom(2, 4),
          indentSeq: fc.boolean(),
          // Narrow lines fold long scalars over several lines, quoted ones too.
          lineWidth: fc.constantFrom(0, 12, 40),
          defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
          defaultKeyType: fc.constantFrom(null, 'PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'),
          flowLevel: fc.constantFrom(0, 1, 2, 99),
          comments: fc.boolean(),
        }),
        (v, style) => {
          const doc = new Document({ kind: 'Thing', ...v });
          if (style.flowLevel < 99) {
            visit(doc, (_k, node, path) => {
              if ((isMap(node) || isSeq(node)) && path.length >= style.flowLevel * 2 + 2) node.flow = true;
            });
          }
          let text = doc.toString({
            indent: style.indent,
            indentSeq: style.indentSeq,
            lineWidth: style.lineWidth,
            minContentWidth: 0,
            defaultStringType: style.defaultStringType,
            defaultKeyType: style.defaultKeyType,
          } as ToStringOptions);
          // Comment lines at every indentation between the lines.
          if (style.comments) text = text.replace(/\n/g, (_m, at: number) => `\n${' '.repeat(at % 7)}# c\n`);
          const { objects, errors } = loadManifestsWithErrors(text, 'g.yaml');
          if (errors.length > 0) return;
          for (const o of objects) {
            const fast = fastDocumentOf(o as object);
            if (fast === undefined) continue;
            const indexed = indexOffsets(fast.doc.text);
            for (const p of ['', ...fieldPaths(o)]) {
              const segments = [...fast.base, ...parsePath(p)];
              const scanned = scanOffset(fast.doc, segments);
              if (scanned !== undefined) expect([p, scanned]).toEqual([p, indexed(segments)]);
            }
          }
          const slow = loadManifestsWithErrors(text, 'g.yaml', { fast: false });
          if (slow.errors.length > 0) return;
          objects.forEach((o, i) => {
            for (const p of ['', ...fieldPaths(o)]) {
              expect([p, sourcePosition(o, p)]).toEqual([p, sourcePosition(slow.objects[i], p)]);
            }
          });
        },
      ),
      propertyParameters(300),
    );
  });
});
