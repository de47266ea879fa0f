/**
 * Issue 25: the rule module is the only owner of its rule. No rule id is judged, worded or given a severity outside
 * its module: this scans lib/ for rule ids in string literals (comments aside) outside lib/core/rules/ (the modules,
 * the registry, the front doors' view of them) and the catalogue. What must stay is listed below with its reason;
 * what is still to move is listed as pending, so the list only shrinks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { RULE_MODULES } from '../../lib/core/rules';

const ROOT = path.resolve(__dirname, '../..');
const LIB = path.join(ROOT, 'lib');

/** Files allowed to name rule ids in string literals, by file, with the ids and why. */
// None: the rule that cannot be suppressed says so in its module (`suppressible: false`), not by id in the engine.
const ALLOWED: Readonly<Record<string, { readonly ids: readonly string[]; readonly why: string }>> = {};

/** Where rule ids belong: the modules and what reads them (lib/core/rules/), and the catalogue. */
const OWNERS = [path.join('lib', 'core', 'rules') + path.sep, path.join('lib', 'core', 'validate', 'rules.ts')];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The source without its comments (block comments, and line comments that start a line). */
const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

test('no rule id appears in a string literal outside its module and the catalogue, except as listed', () => {
  const ids = RULE_MODULES.map((r) => r.meta.id);
  const found: Record<string, string[]> = {};
  for (const file of sources(LIB)) {
    const rel = path.relative(ROOT, file);
    if (OWNERS.some((o) => rel.startsWith(o) || rel === o)) continue;
    const text = withoutComments(readFileSync(file, 'utf8'));
    const named = ids.filter((id) => new RegExp(`['"\`]${id}['"\`]`).test(text));
    if (named.length > 0) found[rel.split(path.sep).join('/')] = named.sort();
  }
  const allowed = Object.fromEntries(Object.entries(ALLOWED).map(([f, a]) => [f, [...a.ids].sort()]));
  expect(found).toEqual(allowed);
});
