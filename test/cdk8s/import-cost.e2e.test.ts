/**
 * What `require('k8s-windows/cdk8s')` loads (bench/import.bench.ts times it): of the rule modules, only those the
 * constructs run and the one `pinLinuxWorkloads` runs; no cloud check, no policy generator, no rule catalogue, no
 * pod-security evaluation. Checked in a fresh Node process, where require.cache lists every module really loaded.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { RULE_MODULES, type RuleModule } from '../../lib/core/rules';
import { CONSTRUCT_RULE_MODULES } from '../../lib/core/rules/refused-by-constructs';

const ROOT = path.join(__dirname, '..', '..');

/** Our files `require(specifier)` loads, relative to the repository (`lib/core/rules/rule.ts`). */
function loadedLibFiles(specifier: string): string[] {
  const script = `require(${JSON.stringify(specifier)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return (JSON.parse(out) as string[])
    .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
    .filter((f) => f.startsWith('lib/'));
}

test("k8s-windows/cdk8s loads the constructs' rule modules and no other rule, cloud, policy or catalogue module", () => {
  const files = loadedLibFiles('k8s-windows/cdk8s');
  expect(files).toContain('lib/cdk8s/index.ts');
  const ruleIds = new Set((RULE_MODULES as readonly RuleModule[]).map((r) => r.meta.id));
  const loadedRules = files
    .filter((f) => f.startsWith('lib/core/rules/') && ruleIds.has(path.basename(f, '.ts')))
    .map((f) => path.basename(f, '.ts'))
    .sort();
  expect(loadedRules).toEqual([...CONSTRUCT_RULE_MODULES.map((r) => r.meta.id), 'wildcard-toleration'].sort());
  expect(
    files.filter((f) => /^lib\/core\/((cloud|policies|validate)\/|cloud-gates|pod-security\/(?!labels\.ts))/.test(f)),
  ).toEqual([]);
  expect(files).not.toContain('lib/core/rules/index.ts');
  expect(files).not.toContain('lib/core/api/schema-data.ts');
});
