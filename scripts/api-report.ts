/**
 * The public surface, written down: one report per package entry (package.json `exports`) listing every name the
 * entry exports with its kind, so any change to what users can import shows up in review as a diff of `api/`.
 *
 * The `k8s-windows/cdk8s-plus-NN` entries are built from `lib/cdk8s` (scripts/cdk8s-plus-majors.ts) and export
 * exactly what `k8s-windows/cdk8s` exports; `api/cdk8s.api.md` stands for them.
 *
 * Names marked `@internal` are listed with that mark: `stripInternal` drops them from the `.d.ts`, but the JavaScript
 * entry still exports them, so they are part of what a user can reach.
 *
 * Usage: tsx scripts/api-report.ts [check]   (`npm run api-report`, `npm run api-report -- check`)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');
export const API_DIR = join(ROOT, 'api');

/** Each entry: its import specifier, its source file and the report file it is written to. */
export const ENTRIES: readonly { specifier: string; source: string; report: string }[] = [
  { specifier: 'k8s-windows', source: 'lib/index.ts', report: 'index.api.md' },
  { specifier: 'k8s-windows/facts', source: 'lib/facts.ts', report: 'facts.api.md' },
  { specifier: 'k8s-windows/cdk8s', source: 'lib/cdk8s/index.ts', report: 'cdk8s.api.md' },
  { specifier: 'k8s-windows/cdk8s/plugin', source: 'lib/cdk8s/plugin.ts', report: 'cdk8s-plugin.api.md' },
  { specifier: 'k8s-windows/addons', source: 'lib/addons/index.ts', report: 'addons.api.md' },
  { specifier: 'k8s-windows/pulumi', source: 'lib/pulumi/index.ts', report: 'pulumi.api.md' },
  { specifier: 'k8s-windows/pulumi/eks', source: 'lib/pulumi/eks/index.ts', report: 'pulumi-eks.api.md' },
  { specifier: 'k8s-windows/pulumi/aks', source: 'lib/pulumi/aks/index.ts', report: 'pulumi-aks.api.md' },
  { specifier: 'k8s-windows/pulumi/gke', source: 'lib/pulumi/gke/index.ts', report: 'pulumi-gke.api.md' },
  { specifier: 'k8s-windows/pulumi/policy', source: 'lib/pulumi/policy/index.ts', report: 'pulumi-policy.api.md' },
  { specifier: 'k8s-windows/pulumi/testing', source: 'lib/pulumi/testing.ts', report: 'pulumi-testing.api.md' },
];

export interface ExportedName {
  name: string;
  /** Every kind the name carries (a name can be both a value and a type, e.g. a const and a type alias). */
  kinds: string[];
  internal: boolean;
}

function kindsOf(symbol: ts.Symbol): string[] {
  const f = symbol.flags;
  const kinds: string[] = [];
  if (f & ts.SymbolFlags.Class) kinds.push('class');
  if (f & ts.SymbolFlags.Function) kinds.push('function');
  if (f & ts.SymbolFlags.Enum) kinds.push('enum');
  if (f & ts.SymbolFlags.Variable) {
    const decl = symbol.valueDeclaration;
    const list = decl && ts.isVariableDeclaration(decl) ? decl.parent : undefined;
    const isConst = list !== undefined && ts.isVariableDeclarationList(list) && (list.flags & ts.NodeFlags.Const) !== 0;
    kinds.push(isConst ? 'const' : 'let');
  }
  if (f & ts.SymbolFlags.Interface) kinds.push('interface');
  if (f & ts.SymbolFlags.TypeAlias) kinds.push('type');
  if (f & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) kinds.push('namespace');
  return kinds.length > 0 ? kinds : ['unknown'];
}

function isInternal(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => ts.getJSDocTags(d).some((t) => t.tagName.text === 'internal'));
}

/** Builds one program over every entry and lists each entry's exports, sorted by name. */
export function collectExports(): Map<string, ExportedName[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json could not be read');
  const roots = ENTRIES.map((e) => join(ROOT, e.source));
  const program = ts.createProgram(roots, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const result = new Map<string, ExportedName[]>();
  for (const entry of ENTRIES) {
    const file = program.getSourceFile(join(ROOT, entry.source));
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error(`${entry.source}: not a module the compiler could read`);
    const names = checker.getExportsOfModule(moduleSymbol).map((exported): ExportedName => {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      return { name: exported.name, kinds: kindsOf(target), internal: isInternal(target) };
    });
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    result.set(entry.specifier, names);
  }
  return result;
}

/** The report of one entry, as Markdown: a count line and a table of names and kinds. */
export function renderReport(specifier: string, names: readonly ExportedName[]): string {
  const values = names.filter((n) => n.kinds.some((k) => !['interface', 'type'].includes(k))).length;
  const lines = [
    `# \`${specifier}\``,
    '',
    'Generated by `npm run api-report` (scripts/api-report.ts); test/api-report.e2e.test.ts fails when this file is stale.',
    '',
    `${names.length} exports (${values} with a runtime value, ${names.length - values} types only).`,
    '',
    '| Name | Kind |',
    '| --- | --- |',
    ...names.map((n) => `| \`${n.name}\` | ${n.kinds.join(', ')}${n.internal ? ' (@internal)' : ''} |`),
    '',
  ];
  return lines.join('\n');
}

/** Every report file, by file name, as the script would write it now. */
export function renderAll(byEntry: Map<string, ExportedName[]> = collectExports()): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of ENTRIES) files.set(entry.report, renderReport(entry.specifier, byEntry.get(entry.specifier)!));
  return files;
}

/** The report files whose committed text differs from what the script writes now (missing files included). */
export function staleReports(files: Map<string, string> = renderAll()): string[] {
  return [...files]
    .filter(([name, text]) => {
      const path = join(API_DIR, name);
      return !existsSync(path) || readFileSync(path, 'utf8') !== text;
    })
    .map(([name]) => `api/${name}`);
}

function main(argv: readonly string[]): number {
  const mode = argv[0] ?? 'write';
  switch (mode) {
    case 'write': {
      mkdirSync(API_DIR, { recursive: true });
      for (const [name, text] of renderAll()) writeFileSync(join(API_DIR, name), text);
      console.log(`wrote ${ENTRIES.length} reports to api/`);
      return 0;
    }
    case 'check': {
      const stale = staleReports();
      if (stale.length === 0) return 0;
      console.error(`The public surface changed; run \`npm run api-report\` and commit: ${stale.join(', ')}`);
      return 1;
    }
    default:
      console.error(`unknown mode "${mode}": use no argument to write the reports, or "check"`);
      return 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
