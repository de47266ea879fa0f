/**
 * The README's TypeScript blocks are type-checked by `npm run typecheck` (scripts/readme-examples.ts); this holds the
 * checker itself to finding drift: a wrong call, a missing context, a README line number in the message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { checkReadmeExamples, readmeBlocks } from '../scripts/readme-examples';

const README = `# Title

<!-- readme-check
declare const text: string;
-->

\`\`\`ts
import { loadManifests, validateManifests } from 'k8s-windows';
const diagnostics = validateManifests(loadManifests(text, 'app.yaml'), { rules: { x: 'loud' } });
\`\`\`

\`\`\`ts
import { validateManifests } from 'k8s-windows';
validateManifests(objects);
\`\`\`
`;

test('blocks come with their readme-check context and their README line', () => {
  expect(readmeBlocks(README).map((b) => [b.line, b.context])).toEqual([
    [8, 'declare const text: string;'],
    [13, ''],
  ]);
});

test('a block that drifted from the API fails, named by its README line', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-readme-'));
  try {
    const file = path.join(dir, 'README.md');
    writeFileSync(file, README);
    const problems = checkReadmeExamples(file);
    expect(problems).toEqual([
      expect.stringMatching(/^README\.md line 9: TS2322: Type '"loud"' is not assignable/),
      expect.stringMatching(/^README\.md line 14: TS\d+: Cannot find name 'objects'/),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
