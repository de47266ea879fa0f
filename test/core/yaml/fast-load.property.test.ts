/**
 * The loader's fast path (js-yaml, positions on demand) reads generated documents as the `yaml` path does, in block
 * and flow styles: the same objects, the same positions. The corpus and the tricky forms are in fast-load.test.ts.
 */
import fc from 'fast-check';
import { Document, isMap, stringify, type YAMLMap } from 'yaml';
import { loadManifestsWithErrors, sourcePosition } from '../../../lib/core/yaml/loader';
import { propertyParameters } from '../../helpers/property';
import { fieldPaths } from './field-paths';

describe('fast path, generated documents', () => {
  const key = fc.oneof(
    fc.constantFrom('kind', 'spec', 'metadata', 'name', 'image', 'kubernetes.io/os', 'a b', 'x'),
    fc.string({ minLength: 1, maxLength: 6 }),
  );
  const scalar = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('yes', 'on', '0o17', '1e3', '~', '---', '- x', 'a: b', '#c', "it's", '"q"'),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
    list: fc.array(tie('node'), { maxLength: 4 }),
    map: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  })).map;

  test('the same objects and positions with anchors and aliases (values shared between fields)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(value, value, fc.constantFrom('merged', 'shared', 'listed')), { minLength: 1, maxLength: 3 }),
        fc.record({ flow: fc.boolean(), indentSeq: fc.boolean() }),
        (docs, style) => {
          // yaml writes a value used twice as an anchor and an alias; a mapping may also be merged with <<.
          const text = docs
            .map(([shared, own, how]) => {
              const doc = new Document({ kind: 'Thing', a: shared, own, b: shared, list: [shared, own, shared] });
              const anchored = doc.get('a', true);
              if (how === 'merged' && isMap(anchored)) {
                const merged = doc.createNode({ x: 1 }) as YAMLMap;
                merged.items.unshift(doc.createPair('<<', doc.createAlias(anchored)));
                doc.set('c', merged);
              }
              return doc.toString({ indentSeq: style.indentSeq, ...(style.flow ? { collectionStyle: 'flow' } : {}) });
            })
            .join('---\n');
          const fast = loadManifestsWithErrors(text, 'gen.yaml');
          const slow = loadManifestsWithErrors(text, 'gen.yaml', { fast: false });
          expect(fast).toEqual(slow);
          fast.objects.forEach((o, i) => {
            for (const p of ['', ...fieldPaths(o)])
              expect([p, sourcePosition(o, p)]).toEqual([p, sourcePosition(slow.objects[i], p)]);
          });
        },
      ),
      propertyParameters(200),
    );
  });

  test('the same objects and positions as the yaml path, in block and flow styles', () => {
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 3 }),
        fc.record({ flow: fc.boolean(), indentSeq: fc.boolean(), indent: fc.constantFrom(2, 4) }),
        (docs, style) => {
          const text = docs
            .map((d) =>
              stringify(
                { kind: 'Thing', ...d },
                {
                  indent: style.indent,
                  indentSeq: style.indentSeq,
                  ...(style.flow ? { collectionStyle: 'flow' as const } : {}),
                },
              ),
            )
            .join('---\n');
          const fast = loadManifestsWithErrors(text, 'gen.yaml');
          const slow = loadManifestsWithErrors(text, 'gen.yaml', { fast: false });
          expect(fast).toEqual(slow);
          fast.objects.forEach((o, i) => {
            for (const p of fieldPaths(o))
              expect([p, sourcePosition(o, p)]).toEqual([p, sourcePosition(slow.objects[i], p)]);
          });
        },
      ),
      propertyParameters(300),
    );
  });
});
