import { cycles, forbiddenEdges, importGraph, type ImportGraph } from '../scripts/import-graph';

/**
 * Cycles left to the work that removes them, each with its reason; a new one fails here. Type-only imports count:
 * a reader follows them as much as any other.
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

let graph: ImportGraph;
beforeAll(() => {
  graph = importGraph();
});

test('the graph sees every kind of import: declarations, export-from, type-only, require() and import()', () => {
  expect(graph.get('lib/index.ts')).toEqual(expect.arrayContaining(['lib/core/index.ts', 'lib/registry/index.ts']));
  // import type
  expect(graph.get('lib/registry/lookup.ts')).toContain('lib/core/model/image-lookup.ts');
  // require()
  expect(graph.get('lib/cdk8s/image-facts.ts')).toContain('lib/cdk8s/registry-sync.ts');
  // import()
  expect(graph.get('lib/cli/images.ts')).toContain('lib/registry/index.ts');
});

test('lib/ has no import cycle but the known ones', () => {
  const known = new Set(KNOWN_CYCLES.map((cycle) => [...cycle].sort().join(' ')));
  expect(cycles(graph).filter((cycle) => !known.has(cycle.join(' ')))).toEqual([]);
});

test('no layer imports one above it: facts ← model ← rules ← engine ← fix in the core; registry beside it', () => {
  expect(forbiddenEdges(graph)).toEqual([]);
});

test('a forbidden edge and a cycle are seen', () => {
  const planted: ImportGraph = new Map([
    ['lib/core/rules/a.ts', ['lib/core/validate/engine.ts']],
    ['lib/core/validate/engine.ts', ['lib/core/rules/a.ts']],
    ['lib/registry/x.ts', ['lib/cdk8s/y.ts']],
  ]);
  expect(cycles(planted)).toEqual([['lib/core/rules/a.ts', 'lib/core/validate/engine.ts']]);
  expect(forbiddenEdges(planted)).toEqual([
    'lib/core/rules/a.ts → lib/core/validate/engine.ts (rules never import the engine (validate/) or fix)',
    'lib/registry/x.ts → lib/cdk8s/y.ts (the registry client is an adapter beside the core: it imports the core only)',
  ]);
});
