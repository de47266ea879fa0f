/**
 * The JSDoc in lib/ becomes the public `.d.ts`: it may cite Kubernetes docs, cloud docs and upstream code, never
 * internal documents ("reference §6", "seeds:") that readers of the typings cannot open.
 */
import { readFileSync, readdirSync } from 'fs';
import { join, relative } from 'path';

const ROOT = join(__dirname, '..');
const INTERNAL = /reference §|reference\/windows-facts|\bseeds?:|§\d/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('public JSDoc cites public sources only', () => {
  const offending: string[] = [];
  for (const file of sources(join(ROOT, 'lib'))) {
    const rel = relative(ROOT, file).split('\\').join('/');
    for (const doc of readFileSync(file, 'utf8').match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
      const hit = INTERNAL.exec(doc);
      if (hit)
        offending.push(`${rel}: ...${doc.slice(Math.max(0, hit.index - 40), hit.index + 30).replace(/\s+/g, ' ')}...`);
    }
  }
  expect(offending).toEqual([]);
});

// `stripInternal` drops a declaration when its doc comment contains the text `@internal` anywhere (TypeScript
// searches the comment's text, not its tags): a doc comment that mentions the tag in prose drops what follows it
// from the .d.ts. lib/core/index.ts once did, and the root entry's types lost WindowsValidationError.
test('a doc comment says @internal only as its tag', () => {
  const offending: string[] = [];
  for (const file of sources(join(ROOT, 'lib'))) {
    const rel = relative(ROOT, file).split('\\').join('/');
    for (const doc of readFileSync(file, 'utf8').match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
      for (const line of doc.split('\n')) {
        if (line.includes('@internal') && !/^\s*(\/\*\*|\*)\s*@internal\b/.test(line))
          offending.push(`${rel}: ${line.trim()}`);
      }
    }
  }
  expect(offending).toEqual([]);
});
