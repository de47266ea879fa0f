/**
 * What a newcomer meets first says what the project does: the set-up section of CONTRIBUTING.md (where the README's
 * Develop section sends contributors) names the tools `npm test` builds (scripts/test-tools.sh) and the Node.js lines
 * `.ci/run` tests,
 * `engines` agrees, the snippets of the README and docs/ import entries a `cdk8s init` project has, and the changelog
 * has a place for the next change.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { docBlocks } from '../scripts/readme-examples';

const ROOT = path.join(__dirname, '..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
const contributing = read('CONTRIBUTING.md');
const ci = read('.ci/run');

/** The words of a bash array assignment in `.ci/run`: `NAME=(a b c)`. */
function ciList(name: string): string[] {
  const m = new RegExp(`^${name}=\\(([^)]*)\\)$`, 'm').exec(ci);
  expect(m).not.toBeNull();
  return (m?.[1] ?? '').trim().split(/\s+/);
}

/** CONTRIBUTING.md's "Set up" section. */
const setUp = contributing.slice(
  contributing.indexOf('## Set up'),
  contributing.indexOf('\n## ', contributing.indexOf('## Set up') + 1),
);

test('the tools scripts/test-tools.sh builds are the ones CONTRIBUTING.md lists, at its versions, and CI installs none', () => {
  const script = read('scripts/test-tools.sh');
  const tools = [...script.matchAll(/^provide ([a-z-]+) /gm)].map((m) => m[1]);
  const components = [...script.matchAll(/^component ([a-z-]+) /gm)].map((m) => `build/${m[1]}`);
  expect(tools.length).toBeGreaterThan(0);
  const table = [...setUp.matchAll(/^\| `([a-z0-9./-]+)`(?:, `([a-z0-9./-]+)`)? +\|/gm)].flatMap((m) =>
    [m[1], m[2]].filter((name) => name !== undefined),
  );
  expect(table).toEqual([...tools, ...components]);
  for (const [, version] of script.matchAll(/^[A-Z_]+_VERSION=(\S+)$/gm)) expect(setUp).toContain(version);
  expect(ci).not.toMatch(/apt-get|go install|pip install/);
});

test('the Node.js lines CI tests are the ones CONTRIBUTING.md supports, and engines starts at the oldest', () => {
  const lines = ciList('SUPPORTED_NODE_LINES').map(Number);
  expect(lines).toEqual([22, 24]);
  expect(setUp).toContain(`**Node.js ${lines.join(' or ')}**`);
  const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
  expect(pkg.engines.node).toBe(`>=${Math.min(...lines)}`);
  expect(setUp).toContain(`\`engines\` says \`${pkg.engines.node}\``);
});

test("no snippet of the README or docs/ imports k8s-windows/cdk8s (cdk8s-plus-28's entry): a cdk8s init project has a newer major", () => {
  const imports = docBlocks().filter((b) => /from 'k8s-windows\/cdk8s'/.test(b.code));
  expect(imports.map((b) => `${b.page}:${b.line}`)).toEqual([]);
});

test('the changelog keeps an Unreleased section on top', () => {
  const changelog = read('CHANGELOG.md');
  expect(changelog.startsWith('# Changelog\n')).toBe(true);
  expect(changelog.split('\n').find((l) => l.startsWith('## '))).toBe('## [Unreleased]');
});
