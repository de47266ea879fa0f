/**
 * The pre-commit hooks' definitions (.pre-commit-hooks.yaml) and the .pre-commit-config.yaml the docs show, checked by
 * the pre-commit tool itself (scripts/test-tools.sh installs it into a virtual environment: test/helpers/tools.ts).
 * Running the hooks needs pre-commit to install this repository from git at a version tag (a release commit), so
 * that runs in CI's script path instead: scripts/git-install.sh, in a scratch repository where nothing is installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { HOW_TO_GET_TOOLS, toolPath } from '../helpers/tools';

const ROOT = path.join(__dirname, '../..');

interface Hook {
  readonly id: string;
  readonly entry: string;
  readonly language: string;
  readonly files?: string;
  readonly require_serial?: boolean;
}
const HOOKS = parse(readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];

let work: string;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'k8s-windows-pre-commit-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function preCommit(...args: string[]): { status: number | null; output: string } {
  const r = spawnSync(toolPath('pre-commit'), args, {
    env: { ...process.env, HOME: work, PRE_COMMIT_HOME: path.join(work, 'cache') },
    encoding: 'utf8',
  });
  if (r.error) throw new Error(`pre-commit could not run (${HOW_TO_GET_TOOLS}): ${r.error.message}`);
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** The docs' `.pre-commit-config.yaml` block (the README's, or the CI page's it links to). */
function docsConfig(): { file: string; block: string } {
  for (const file of ['README.md', 'docs/ci.md']) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const block = /```yaml\n(# \.pre-commit-config\.yaml\n[\s\S]*?)```/.exec(text)?.[1];
    if (block !== undefined) return { file, block };
  }
  throw new Error('no ```yaml block starting "# .pre-commit-config.yaml" in README.md or docs/ci.md');
}

describe('pre-commit hooks (.pre-commit-hooks.yaml)', () => {
  test("the hook definitions pass pre-commit's own manifest check", () => {
    expect(preCommit('validate-manifest', path.join(ROOT, '.pre-commit-hooks.yaml'))).toEqual({
      status: 0,
      output: '',
    });
  });

  test('fix, then lint: node hooks that install themselves, every path after `--`, one run for every file', () => {
    expect(HOOKS).toEqual([
      expect.objectContaining({ id: 'k8s-windows-fix', entry: 'k8s-windows fix --write --' }),
      expect.objectContaining({ id: 'k8s-windows-lint', entry: 'k8s-windows lint --' }),
    ]);
    for (const hook of HOOKS) {
      expect(hook).toMatchObject({ language: 'node', files: '\\.(ya?ml|json)$', require_serial: true });
      // The entry runs the package's own bin, which pre-commit's node environment puts on PATH.
      const bin = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: object }).bin;
      expect(Object.keys(bin)).toContain(hook.entry.split(' ')[0]);
    }
  });

  test("the docs' .pre-commit-config.yaml passes pre-commit's config check and runs fix before lint", () => {
    const { block } = docsConfig();
    const file = path.join(work, 'docs-pre-commit-config.yaml');
    writeFileSync(file, block);
    expect(preCommit('validate-config', file)).toEqual({ status: 0, output: '' });
    expect([...block.matchAll(/- id: (\S+)/g)].map((m) => m[1])).toEqual(HOOKS.map((h) => h.id));
    // Options go in .k8s-windows.yaml: after the entry's `--`, args would be paths.
    expect(block).not.toMatch(/^\s*args:/m);
  });
});
