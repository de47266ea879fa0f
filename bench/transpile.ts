/** Transpiles a source tree to CommonJS for benches that run the library in a fresh `node` process. */
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
