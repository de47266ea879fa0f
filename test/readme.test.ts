/**
 * The README and the pages of docs/ hold the code true: the generated tables (rule catalogue, admission policies,
 * rule pages, facts page) are what `npm run docs` writes, the README keeps the test command CI runs, examples are
 * valid, and every link between the pages leads to a file and a heading that exist.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadConfig } from '../lib/core/config';
import * as path from 'node:path';
import { readdirSync } from 'node:fs';
import { CATALOGUE_PAGE, POLICIES_PAGE, RULE_PAGES, rulePages, withRuleCatalogue } from '../scripts/update-readme';
import { withPolicyTables } from '../scripts/policies-table';
import { FACTS_PAGE, formatFactsPage } from '../scripts/facts-page';
import { readDocPages } from '../scripts/readme-examples';

const ROOT = path.join(__dirname, '..');
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const pages = readDocPages();
const docs = pages.map((p) => p.text).join('\n');

test('the rule catalogue in docs/rules.md is the one RULES generates (run `npm run docs`)', () => {
  const page = readFileSync(CATALOGUE_PAGE, 'utf8');
  expect(page).toBe(withRuleCatalogue(page));
});

test("docs/admission-policies.md's tables of enforced and lint-only rules are the ones the rule modules generate (run `npm run docs`)", () => {
  const page = readFileSync(POLICIES_PAGE, 'utf8');
  expect(page).toBe(withPolicyTables(page));
});

test('the README set-up commands are the package scripts CI runs', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(readme).toContain('npm ci && npm run synth');
  expect(readme).toContain('\nnpm test ');
  expect(readme).toContain('[CONTRIBUTING.md](CONTRIBUTING.md)');
  for (const script of ['synth', 'test', 'plan', 'bench', 'build', 'docs']) expect(pkg.scripts[script]).toBeDefined();
  expect(readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).toContain('npm test');
});

test('the README is a front door, not the manual: at most 20 KB, the rest in docs/', () => {
  expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(20 * 1024);
});

test('every rule module has its page in docs/rules, as `npm run docs` writes it', () => {
  const pages = rulePages();
  expect(readdirSync(RULE_PAGES).sort()).toEqual([...pages.keys()].sort());
  for (const [file, text] of pages) expect(readFileSync(path.join(RULE_PAGES, file), 'utf8')).toBe(text);
});

test("the docs' config file example is a valid .k8s-windows.yaml", () => {
  const block = /```yaml\n(# \.k8s-windows\.yaml\n[\s\S]*?)```/.exec(docs)?.[1];
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

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a Markdown page: its headings' slugs, outside code blocks. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (m) anchors.add(slug(m[1]));
  }
  return anchors;
}

/** The relative links of a Markdown page outside code blocks: `[text](target)`. */
function linksOf(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t));
}

test('every link of the README, CONTRIBUTING.md and docs/ leads to a file, and an anchor to a heading of it', () => {
  const broken: string[] = [];
  for (const { page, text } of pages) {
    for (const link of linksOf(text)) {
      const [target, anchor] = link.split('#');
      const file = target === '' ? path.join(ROOT, page) : path.join(ROOT, path.dirname(page), target);
      if (!existsSync(file)) broken.push(`${page}: ${link} (no such file)`);
      else if (anchor !== undefined && statSync(file).isFile() && file.endsWith('.md')) {
        if (!anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${page}: ${link} (no such heading)`);
      }
    }
  }
  expect(broken).toEqual([]);
});

test('the slugs are GitHub’s', () => {
  expect(slug('Images as the registry sees them (`--resolve-images`)')).toBe(
    'images-as-the-registry-sees-them---resolve-images',
  );
  expect(slug('Fix: make any manifest set Windows-correct')).toBe('fix-make-any-manifest-set-windows-correct');
});
