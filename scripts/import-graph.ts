/**
 * The import graph of lib/ (every `import`, `export … from`, `import()` and `require()` of a relative path, type-only
 * imports included: a cycle through a type is still a cycle a reader must hold in mind), and what the layers
 * (DESIGN.md, "Layers") allow of it: test/layers.test.ts fails on a cycle or a forbidden edge.
 *
 * Usage: tsx scripts/import-graph.ts   (prints every cycle and forbidden edge of lib/; exits 1 when there is one)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');

/** `lib/core/rules/x.ts` → the files it imports, as repository-relative paths. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The graph of every .ts file under `dir` (repository-relative, `lib` by default). */
export function importGraph(dir = 'lib'): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(join(ROOT, dir))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles.flatMap(({ fileName }) => {
      const target = resolveSpecifier(file, fileName);
      return target ? [relative(ROOT, target)] : [];
    });
    graph.set(relative(ROOT, file), [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself): each is a cycle. */
export function cycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) out.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  return out;
}

/**
 * What each part of lib/ may not import (DESIGN.md, "Layers"): a file under `from` importing a file under any of
 * `not` is a forbidden edge. eslint.config.mjs says the same for import declarations, as the editor shows them;
 * this also sees `require()` and `import()`.
 */
export const FORBIDDEN: readonly {
  readonly from: string;
  readonly not: readonly string[];
  /** Files under `not` that are allowed all the same: a part's door (its index). */
  readonly except?: readonly string[];
  readonly why: string;
}[] = [
  {
    from: 'lib/core/',
    not: ['lib/registry/', 'lib/cluster/', 'lib/cdk8s/', 'lib/pulumi/', 'lib/cli/', 'lib/index.ts'],
    why: 'the core is pure: no I/O adapter, no front door',
  },
  {
    from: 'lib/registry/',
    not: ['lib/cdk8s/', 'lib/pulumi/', 'lib/cli/', 'lib/index.ts'],
    why: 'the registry client is an adapter beside the core: it imports the core only',
  },
  {
    from: 'lib/cluster/',
    not: ['lib/registry/', 'lib/cdk8s/', 'lib/pulumi/', 'lib/cli/', 'lib/index.ts'],
    why: 'the cluster client is an adapter beside the core (it reads a live cluster): it imports the core only',
  },
  {
    from: 'lib/core/facts/',
    not: ['lib/core/model/', 'lib/core/rules/', 'lib/core/validate/', 'lib/core/fix/', 'lib/core/index.ts'],
    why: 'facts are data at the bottom: they import nothing above them',
  },
  {
    from: 'lib/core/model/',
    not: ['lib/core/rules/', 'lib/core/validate/', 'lib/core/fix/', 'lib/core/index.ts'],
    why: 'the model the rules read sits below the rules',
  },
  {
    from: 'lib/core/rules/',
    not: ['lib/core/validate/', 'lib/core/fix/', 'lib/core/index.ts'],
    why: 'rules never import the engine (validate/) or fix',
  },
  { from: 'lib/core/validate/', not: ['lib/core/fix/'], why: 'the engine sits below fix' },
  {
    from: 'lib/core/yaml/',
    not: ['lib/core/rules/', 'lib/core/validate/', 'lib/core/fix/', 'lib/core/policies/', 'lib/core/index.ts'],
    why: 'YAML text handling sits below the engine and fix: it reads and edits text, and knows no rule',
  },
  ...['lib/core/validate/', 'lib/core/fix/'].map((from) => ({
    from,
    not: ['lib/core/yaml/'],
    except: ['lib/core/yaml/index.ts'],
    why: 'YAML text handling is reached through its door, lib/core/yaml/index.ts',
  })),
];

/** Every forbidden edge of the graph, as `from → to (why)`. */
export function forbiddenEdges(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const rule of FORBIDDEN) {
      if (!from.startsWith(rule.from)) continue;
      for (const to of targets) {
        if (rule.except?.includes(to) === true) continue;
        if (rule.not.some((prefix) => to.startsWith(prefix))) out.push(`${from} → ${to} (${rule.why})`);
      }
    }
  }
  return out.sort();
}

if (require.main === module) {
  const graph = importGraph();
  const found = cycles(graph);
  for (const cycle of found) process.stdout.write(`cycle of ${cycle.length}:\n  ${cycle.join('\n  ')}\n`);
  const edges = forbiddenEdges(graph);
  for (const edge of edges) process.stdout.write(`forbidden: ${edge}\n`);
  process.exit(found.length > 0 || edges.length > 0 ? 1 : 0);
}
