/**
 * The loader's fast path (js-yaml, positions on demand) reads every document as the `yaml` path does: the same
 * objects, the same positions, on the real-world corpus and on the YAML forms where the two parsers could differ
 * (generated documents: fast-load.property.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { validateManifests } from '../../../lib/core/validate';
import { loadManifestsWithErrors, sourcePosition } from '../../../lib/core/yaml';
import { fieldPaths } from '../yaml/field-paths';

const CORPUS = path.join(__dirname, '../../fixtures/realworld');

/** What the `yaml` path reads: every document's value, List items unwrapped, as the loader does. */
function slowObjects(text: string): unknown[] {
  return parseAllDocuments(text, { merge: true })
    .map((d) => d.toJS({ maxAliasCount: 1000 }) as unknown)
    .filter((v) => v !== null && v !== undefined)
    .flatMap((v) => {
      const r = v as { kind?: unknown; items?: unknown };
      return typeof r.kind === 'string' && r.kind.endsWith('List') && Array.isArray(r.items) ? r.items : [v];
    });
}

describe('fast path', () => {
  const files = readdirSync(CORPUS).filter((f) => /\.(ya?ml|json)$/.test(f));

  test.each(files)('%s: the same objects, findings and positions as the yaml path', (file) => {
    const text = readFileSync(path.join(CORPUS, file), 'utf8');
    const { objects, errors } = loadManifestsWithErrors(text, file);
    expect(errors).toEqual([]);
    expect(objects).toEqual(slowObjects(text));
    const slow = loadManifestsWithErrors(text, file, { fast: false }).objects;
    expect(validateManifests(objects)).toEqual(validateManifests(slow));
    // Every field of every object, located both ways (keys, list items, absent fields' parents).
    objects.forEach((o, i) => {
      for (const p of fieldPaths(o)) expect([p, sourcePosition(o, p)]).toEqual([p, sourcePosition(slow[i], p)]);
    });
  });

  const TRICKY: Record<string, string> = {
    'core schema scalars':
      'a: yes\nb: on\nc: 0o17\nd: 0x1F\ne: 1e3\nf: .inf\ng: ~\nh: 2024-01-01\ni: "007"\nj: 1_000\nk: +12\n',
    'merge keys': 'base: &b {x: 1}\nthing:\n  <<: *b\n  y: 2\n',
    'document markers with content': '--- {kind: A}\n--- # c\nkind: B\n---\n',
    'block scalars holding dashes': 'kind: A\ndata:\n  s: |\n    ---\n    line\n---\nkind: B\n',
    'a List': 'kind: List\nitems:\n- {kind: A}\n- {kind: B}\n',
    JSON: '{"kind": "A", "spec": {"n": 1, "s": "x"}}',
    CRLF: 'kind: A\r\nspec:\r\n  a: 1\r\n---\r\nkind: B\r\n',
    'quoted keys and values': '"kind": \'A\'\n? complex\n: value\n',
    'empty entries': 'kind: A\nlist:\n- \n- b\n-\n  - c\nmap:\n  k:\n  j: {a: , b: [x]}\n',
    'flow and block mixed':
      'kind: A\nspec: {containers: [{name: a, image: b}, {name: c}], x: [1, [2, 3]]}\nz:\n  -   a: 1\n      b: 2\n',
    'comments between keys': 'kind: A # c\n# x\nspec:\n  # y\n  a: 1 # z\n  b:\n    # w\n    - 1\n',
    // Where an absent field is placed: the document's content start, after the marker line and comments.
    'comments and blank lines before the content': '# head\n\n# more\nkind: A\n--- # c\n\n  # d\nkind: B\n',
    'indented content': '---\n  kind: A\n  spec: {a: 1}\n',
    'tagged root': '--- !!map\nkind: A\n---\n!!map {kind: B}\n',
    // Anchors and aliases (read by js-yaml; positions at or through them by yaml).
    'an alias to a mapping, a list and a scalar':
      'kind: A\nbase: &b\n  x: 1\n  y: [1, {z: 2}]\nthing: *b\nk: !!str &s v\nl: *s\nseq: &q\n  - 1\n  - {a: 2}\nm: *q\n',
    'an anchored list item': 'kind: A\nlist:\n- &i\n  a: 1\n  b: [x]\n- *i\n- &j {c: 3}\n- *j\n',
    'merge keys from an alias': 'kind: A\nbase: &b {x: 1, y: 2}\nthing:\n  <<: *b\n  y: 3\nmore:\n  <<: [*b, {z: 4}]\n',
    'an anchored root': '--- &r\nkind: A\nspec: {a: 1}\n',
    'an alias as a key (read by yaml)': 'kind: A\nk: &k key\nm:\n  *k : 1\n',
    'more aliases than the fast path reads (read by yaml)':
      'kind: A\na: &a [1]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: &d [*c, *c, *c]\ne: &e [*d]\n',
    'flow content on the marker line': '---   {kind: B, spec: [1]}\n---\t[1]\n',
  };

  test.each(Object.entries(TRICKY))('%s: the same objects and positions', (_name, text) => {
    const { objects } = loadManifestsWithErrors(text);
    expect(objects).toEqual(slowObjects(text));
    const slow = loadManifestsWithErrors(text, undefined, { fast: false }).objects;
    objects.forEach((o, i) => {
      for (const p of ['', ...fieldPaths(o)])
        expect([p, sourcePosition(o, p)]).toEqual([p, sourcePosition(slow[i], p)]);
    });
  });

  test('a plain << merge key merges on both paths, as kubectl reads it (found by the generated-documents property)', () => {
    for (const text of ['kind: Thing\n<<: {}\n', 'kind: Thing\n<<: {a: 1}\n', 'kind: Thing\n<<: [{a: 1}, {b: 2}]\n']) {
      const fast = loadManifestsWithErrors(text, 'merge.yaml');
      expect(fast).toEqual(loadManifestsWithErrors(text, 'merge.yaml', { fast: false }));
      expect(fast.objects[0]).not.toHaveProperty(['<<']);
    }
    // A list among a merge's sources: js-yaml merges it, yaml refuses the document; the fast path leaves it to yaml,
    // directly and through an alias (found by the anchors-and-aliases property, seed -2010978899).
    for (const text of [
      'kind: Thing\nown:\n  <<:\n  - []\n',
      'kind: Thing\nown: {<<: [[]]}\n',
      'kind: Thing\na: &a\n- []\nc:\n  <<: *a\n',
      'kind: Thing\na: &a {}\nown: &o\n  <<:\n  - []\nc:\n  <<: *a\n  x: 1\n---\nkind: Other\n',
    ]) {
      const fast = loadManifestsWithErrors(text, 'merge.yaml');
      expect(fast).toEqual(loadManifestsWithErrors(text, 'merge.yaml', { fast: false }));
      expect(fast.errors.map((e) => e.message)).toContain('Merge sources must be maps or map aliases');
    }
    // A quoted "<<" is an ordinary key.
    expect(loadManifestsWithErrors('kind: Thing\n"<<": {}\n', 'q.yaml').objects).toEqual([{ kind: 'Thing', '<<': {} }]);
  });

  test('positions are counted from the start of the input, in every document', () => {
    const text = '# head\nkind: A\nmetadata: {name: a}\n---\n\nkind: B\nspec:\n  containers:\n  - image: x\n';
    const [a, b] = loadManifestsWithErrors(text, 'f.yaml').objects;
    expect(sourcePosition(a, 'metadata.name')).toEqual({ source: 'f.yaml', line: 3, column: 12 });
    expect(sourcePosition(b, 'spec.containers[0].image')).toEqual({ source: 'f.yaml', line: 9, column: 5 });
  });

  test('an alias bomb is refused as before: 9 aliases cannot pass the limit, more are read by yaml', () => {
    // Each level's list names the level below `uses` times.
    const bomb = (levels: number, uses: number) =>
      `kind: A\nl0: &l0 [x]\n${Array.from({ length: levels }, (_, i) => `l${i + 1}: &l${i + 1} [${Array<string>(uses).fill(`*l${i}`).join(', ')}]\n`).join('')}`;
    const refused = [expect.objectContaining({ message: expect.stringMatching(/resource exhaustion/) as unknown })];
    for (const [levels, uses, errors] of [
      [9, 1, []],
      [10, 1, refused],
      [3, 3, []],
      [6, 3, refused],
      [9, 9, refused],
    ] as const) {
      const text = bomb(levels, uses);
      const fast = loadManifestsWithErrors(text, 'b.yaml');
      expect(fast).toEqual(loadManifestsWithErrors(text, 'b.yaml', { fast: false }));
      expect(fast.errors).toEqual(errors);
    }
  });

  test('errors are reported by the yaml path, as before', () => {
    const { objects, errors } = loadManifestsWithErrors('kind: A\n---\nkind: [unclosed\n---\nkind: C\n', 'f.yaml');
    expect(objects).toEqual([{ kind: 'A' }, { kind: 'C' }]);
    expect(errors).toEqual([expect.objectContaining({ source: 'f.yaml', line: 4 })]);
  });
});
