/**
 * The cdk8s-plus majors this package supports, and the tools that make one source serve all of them.
 *
 * `lib/cdk8s` is written once, against `cdk8s-plus-28` (the `k8s-windows/cdk8s` entry). For every later major NN:
 * - `check`: type-checks `lib/cdk8s` with `cdk8s-plus-28` resolved to `cdk8s-plus-NN`, so the one source is proven
 *   to compile against every major's own typings (run by `npm run typecheck`);
 * - `build`: writes `build/cdk8s-plus-NN/` from the compiled `build/cdk8s/`, with every `cdk8s-plus-28` specifier
 *   (in `require` calls and `.d.ts` imports) rewritten to `cdk8s-plus-NN`, so the entry loads and types against that
 *   major (run by `npm run build`). Relative imports (`../core/...`) resolve to the one shared `build/core`.
 *
 * Usage: tsx scripts/cdk8s-plus-majors.ts check|build
 */
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';
import ts from 'typescript';

/** The major `lib/cdk8s` is written against. */
export const SOURCE_MAJOR = 28;
/** The later majors, each with its own `k8s-windows/cdk8s-plus-NN` entry. */
export const LATER_MAJORS = [29, 30, 31, 32, 33, 34] as const;

const ROOT = resolve(__dirname, '..');
const SOURCE_SPECIFIER = `cdk8s-plus-${SOURCE_MAJOR}`;

/** Type-checks `lib/cdk8s` against each later major; returns the formatted diagnostics (empty when clean). */
export function checkMajors(majors: readonly number[] = LATER_MAJORS): string {
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
  const roots = ['index.ts', 'plugin.ts'].map((f) => join(ROOT, 'lib/cdk8s', f));
  // One cache of parsed files for every program: only the cdk8s-plus typings differ between them.
  const cache = new Map<string, ts.SourceFile | undefined>();
  const out: string[] = [];
  for (const major of majors) {
    const options: ts.CompilerOptions = {
      ...config.options,
      noEmit: true,
      declaration: false,
      sourceMap: false,
      inlineSources: false,
      baseUrl: ROOT,
      paths: { [SOURCE_SPECIFIER]: [`node_modules/cdk8s-plus-${major}`] },
    };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (file, lang, onError) => {
      if (!cache.has(file)) cache.set(file, read(file, lang, onError));
      return cache.get(file);
    };
    const program = ts.createProgram(roots, options, host);
    const files = program.getSourceFiles().map((f) => f.fileName);
    if (
      !files.some((f) => f.includes(`/cdk8s-plus-${major}/`)) ||
      files.some((f) => f.includes(`/${SOURCE_SPECIFIER}/`))
    ) {
      out.push(
        `lib/cdk8s against cdk8s-plus-${major}: the typings of cdk8s-plus-${major} were not the ones used (is it installed?)`,
      );
      continue;
    }
    const diagnostics = ts.getPreEmitDiagnostics(program);
    if (diagnostics.length > 0) {
      out.push(
        `lib/cdk8s against cdk8s-plus-${major}:\n` +
          ts.formatDiagnostics(diagnostics, {
            getCanonicalFileName: (f) => f,
            getCurrentDirectory: () => ROOT,
            getNewLine: () => '\n',
          }),
      );
    }
  }
  return out.join('\n');
}

/** Rewrites the cdk8s-plus module specifier (and the major named in doc comments) in one emitted file. */
export function retarget(text: string, major: number): string {
  return text.split(SOURCE_SPECIFIER).join(`cdk8s-plus-${major}`);
}

/** Writes `build/cdk8s-plus-NN/` for each later major from the compiled `build/cdk8s/`. */
export function buildMajors(majors: readonly number[] = LATER_MAJORS): void {
  const from = join(ROOT, 'build/cdk8s');
  if (!existsSync(join(from, 'index.js')))
    throw new Error('build/cdk8s is missing: run tsc -p tsconfig.build.json first');
  for (const major of majors) {
    const to = join(ROOT, `build/cdk8s-plus-${major}`);
    rmSync(to, { recursive: true, force: true });
    // The validation plugin does not depend on cdk8s-plus: it ships once, as `k8s-windows/cdk8s/plugin`.
    cpSync(from, to, { recursive: true, filter: (src) => !/[\\/]plugin\.(js|d\.ts|js\.map)$/.test(src) });
    for (const file of readdirSync(to)) {
      if (!/\.(js|d\.ts)$/.test(file)) continue;
      const path = join(to, file);
      writeFileSync(path, retarget(readFileSync(path, 'utf8'), major));
    }
  }
}

if (require.main === module) {
  const command = process.argv[2];
  if (command === 'check') {
    const problems = checkMajors();
    if (problems) {
      process.stderr.write(problems);
      process.exit(1);
    }
  } else if (command === 'build') {
    buildMajors();
  } else {
    process.stderr.write('Usage: tsx scripts/cdk8s-plus-majors.ts check|build\n');
    process.exit(2);
  }
}
