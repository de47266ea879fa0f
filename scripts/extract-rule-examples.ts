/**
 * One-off migration aid for issue 14: moves the `examples` of rule modules written inline into
 * `lib/core/rules/<id>.examples.yaml` beside them, and removes the inline block. Run with the ids to move.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { RULE_MODULES } from '../lib/core/rules';

const DIR = path.join(__dirname, '..', 'lib', 'core', 'rules');

for (const rule of RULE_MODULES as readonly { meta: { id: string }; examples?: unknown }[]) {
  if (rule.examples === undefined) continue;
  const id = rule.meta.id;
  const file = path.join(DIR, `${id}.ts`);
  const source = readFileSync(file, 'utf8');
  const start = source.indexOf('\n  examples: {');
  if (start < 0) continue;
  // The block ends at the first line that closes it at its own indentation.
  const end = source.indexOf('\n  },\n', start);
  writeFileSync(file, source.slice(0, start) + source.slice(end + '\n  },'.length));
  const text = stringify(rule.examples, { lineWidth: 0, blockQuote: 'literal' });
  writeFileSync(
    path.join(DIR, `${id}.examples.yaml`),
    `# Examples of ${id} (test/core/rules/examples.test.ts runs them; npm run docs puts them on docs/rules/${id}.md).\n${text}`,
  );
  process.stdout.write(`${id}: examples moved\n`);
}
