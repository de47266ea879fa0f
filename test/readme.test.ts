import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadConfig } from '../lib/core/config';
import * as path from 'node:path';
import { readdirSync } from 'node:fs';
import { README, RULE_PAGES, rulePages, withRuleCatalogue } from '../scripts/update-readme';
import { withPolicyTables } from '../scripts/policies-table';
import { FACTS_PAGE, formatFactsPage } from '../scripts/facts-page';

const readme = readFileSync(README, 'utf8');

test('the README rule catalogue is the one RULES generates (run `npm run docs`)', () => {
  expect(readme).toBe(withRuleCatalogue(readme));
});

test("the README's tables of enforced and lint-only rules are the ones the rule modules generate (run `npm run docs`)", () => {
  expect(readme).toBe(withPolicyTables(readme));
});

test('the README set-up commands are the package scripts CI runs', () => {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(readme).toContain('npm ci && npm run synth');
  expect(readme).toContain('\nnpm test ');
  for (const script of ['synth', 'test', 'plan', 'bench', 'build', 'docs']) expect(pkg.scripts[script]).toBeDefined();
  expect(readFileSync(path.join(__dirname, '..', '.ci', 'run'), 'utf8')).toContain('npm test');
});

test('every rule module has its page in docs/rules, as `npm run docs` writes it', () => {
  const pages = rulePages();
  expect(readdirSync(RULE_PAGES).sort()).toEqual([...pages.keys()].sort());
  for (const [file, text] of pages) expect(readFileSync(path.join(RULE_PAGES, file), 'utf8')).toBe(text);
});

test("the README's config file example is a valid .k8s-windows.yaml", () => {
  const block = /```yaml\n(# \.k8s-windows\.yaml\n[\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-windows-readme-config-'));
  try {
    writeFileSync(path.join(dir, '.k8s-windows.yaml'), block!);
    const config = loadConfig({ cwd: dir });
    expect(config?.issues).toEqual([]);
    expect(config?.settings).toMatchObject({ cloud: 'eks', failOn: 'warning', maxWarnings: 10 });
    expect(config?.settings.suppressions?.[0]).toMatchObject({ rules: ['windows-host-port-cni'], kind: 'DaemonSet' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('docs/facts.md is the page lib/core/facts generates (run `npm run docs`)', () => {
  expect(readFileSync(FACTS_PAGE, 'utf8')).toBe(formatFactsPage());
});
