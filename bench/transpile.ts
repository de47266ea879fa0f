/** Transpiles a source tree to CommonJS for benches that run the library in a fresh `node` process. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/** Writes `fromDir`'s `.ts` files as `.js` under `toDir`, passing each through `rewrite`. */
export function transpileTree(fromDir: string, toDir: string, rewrite: (js: string, toFile: string) => string): void {
  for (const entry of readdirSync(fromDir)) {
    const from = path.join(fromDir, entry);
    if (statSync(from).isDirectory()) {
      transpileTree(from, path.join(toDir, entry), rewrite);
    } else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) {
      const out = ts.transpileModule(readFileSync(from, 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
        fileName: from,
      });
      const toFile = path.join(toDir, entry.replace(/\.ts$/, '.js'));
      mkdirSync(toDir, { recursive: true });
      writeFileSync(toFile, rewrite(out.outputText, toFile));
    }
  }
}

/**
 * `transpileTree` of each of `trees` (relative to `root`) into `toDir`, unchanged, in a child process: a bench that
 * then times the library in its own process keeps the TypeScript compiler out of its heap (its collections would
 * slow both sides of the bench).
 */
export function transpileApart(root: string, trees: readonly string[], toDir: string): void {
  const script = `const { transpileTree } = require(${JSON.stringify(__filename)});
for (const tree of ${JSON.stringify(trees)}) transpileTree(require('node:path').join(${JSON.stringify(root)}, tree), require('node:path').join(${JSON.stringify(toDir)}, tree), (js) => js);`;
  const res = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: root, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`transpiling ${trees.join(', ')} failed: ${res.stderr}`);
}
