/**
 * lib/core/yaml/ sits below the engine and fix, which reach it through its index only (scripts/import-graph.ts's
 * layer table; test/layers.test.ts checks lib/ against it).
 */
import { forbiddenEdges, importGraph, type ImportGraph } from '../../../scripts/import-graph';

test('validate/ and fix/ import yaml/ through its index only, and yaml/ imports neither', () => {
  const graph = importGraph();
  const users = [...graph].filter(
    ([from]) => from.startsWith('lib/core/validate/') || from.startsWith('lib/core/fix/'),
  );
  const reached = users.flatMap(([, to]) => to.filter((t) => t.startsWith('lib/core/yaml/')));
  expect([...new Set(reached)]).toEqual(['lib/core/yaml/index.ts']);
  const below = [...graph].filter(([from]) => from.startsWith('lib/core/yaml/')).flatMap(([, to]) => to);
  expect(below.filter((t) => /^lib\/core\/(?:validate|fix|rules|policies)\//.test(t))).toEqual([]);
});

test('an import past the door, and one from yaml/ upwards, are forbidden edges', () => {
  const planted: ImportGraph = new Map([
    ['lib/core/fix/index.ts', ['lib/core/yaml/document.ts', 'lib/core/yaml/index.ts']],
    ['lib/core/yaml/loader.ts', ['lib/core/validate/engine.ts']],
  ]);
  expect(forbiddenEdges(planted)).toEqual([
    'lib/core/fix/index.ts → lib/core/yaml/document.ts (YAML text handling is reached through its door, lib/core/yaml/index.ts)',
    'lib/core/yaml/loader.ts → lib/core/validate/engine.ts (YAML text handling sits below the engine and fix: it reads and edits text, and knows no rule)',
  ]);
});
