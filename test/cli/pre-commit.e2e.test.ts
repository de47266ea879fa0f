/**
 * The hooks of .pre-commit-hooks.yaml run by the pre-commit tool itself (`pip install pre-commit`, in .ci/run): a
 * hook repository holding this repository's hook files, committed; a scratch repository whose
 * .pre-commit-config.yaml points at it; `pre-commit run --all-files` on a bad and a good manifest. The scratch
 * repository has k8s-windows "installed" as its node_modules/.bin/k8s-windows, which runs this checkout's CLI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readDocPages } from '../../scripts/readme-examples';

const ROOT = path.join(__dirname, '../..');
const BAD = readFileSync(path.join(__dirname, 'fixtures/windows-web.yaml'), 'utf8');
const GOOD = [
  'apiVersion: v1',
  'kind: Pod',
  'metadata: {name: good}',
  'spec:',
  '  os: {name: windows}',
  '  nodeSelector: {kubernetes.io/os: windows, node.kubernetes.io/windows-build: 10.0.20348}',
  '  containers:',
  '  - name: c',
  '    image: mcr.microsoft.com/windows/nanoserver:ltsc2022',
  '',
].join('\n');

let work: string;
let hookRepo: string;
let rev: string;
/** git without the user's or the machine's configuration, and an identity for the commits. */
const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: { ...gitEnv, HOME: work }, encoding: 'utf8' });

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'k8s-windows-pre-commit-'));
  // The hook repository: the files the hooks name, committed (pre-commit clones a repository at a rev).
  hookRepo = path.join(work, 'hooks');
  for (const file of ['.pre-commit-hooks.yaml', 'scripts/pre-commit-hook.sh']) {
    mkdirSync(path.dirname(path.join(hookRepo, file)), { recursive: true });
    copyFileSync(path.join(ROOT, file), path.join(hookRepo, file));
  }
  chmodSync(path.join(hookRepo, 'scripts/pre-commit-hook.sh'), 0o755);
  git(hookRepo, 'init', '-q');
  git(hookRepo, 'add', '-A');
  git(hookRepo, 'commit', '-qm', 'hooks');
  rev = git(hookRepo, 'rev-parse', 'HEAD').trim();
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A scratch repository with the manifest, k8s-windows installed, and a config using `hooks`. */
function scratch(name: string, manifest: string, hooks: readonly string[]): string {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  const bin = path.join(dir, 'node_modules/.bin/k8s-windows');
  const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${tsx}" "${path.join(ROOT, 'lib/cli/main.ts')}" "$@"\n`);
  chmodSync(bin, 0o755);
  writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\n');
  mkdirSync(path.join(dir, 'k8s'));
  writeFileSync(path.join(dir, 'k8s/web.yaml'), manifest);
  writeFileSync(
    path.join(dir, '.pre-commit-config.yaml'),
    [
      'repos:',
      `  - repo: ${hookRepo}`,
      `    rev: ${rev}`,
      '    hooks:',
      ...hooks.map((h) => `      - id: ${h}`),
      '',
    ].join('\n'),
  );
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  return dir;
}

/** PATH less the directories that hold `command`. */
function pathWithout(command: string): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && !existsSync(path.join(dir, command)))
    .join(path.delimiter);
}

function preCommit(dir: string): { status: number | null; output: string } {
  const r = spawnSync('pre-commit', ['run', '--all-files', '--color', 'never'], {
    cwd: dir,
    env: { ...gitEnv, HOME: work, PRE_COMMIT_HOME: path.join(work, 'cache') },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.error) throw new Error(`pre-commit could not run (pip install pre-commit): ${r.error.message}`);
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('pre-commit hooks (.pre-commit-hooks.yaml) under the pre-commit tool', () => {
  test("the hook definitions pass pre-commit's own manifest check", () => {
    const r = spawnSync('pre-commit', ['validate-manifest', path.join(ROOT, '.pre-commit-hooks.yaml')], {
      env: { ...gitEnv, HOME: work, PRE_COMMIT_HOME: path.join(work, 'cache') },
      encoding: 'utf8',
    });
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.status).toBe(0);
  });

  test("the docs' .pre-commit-config.yaml passes pre-commit's config check and names these hooks", () => {
    const readme = readDocPages()
      .map((p) => p.text)
      .join('\n');
    const block = /```yaml\n(# \.pre-commit-config\.yaml\n[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const file = path.join(work, 'readme-pre-commit-config.yaml');
    writeFileSync(file, block!);
    const r = spawnSync('pre-commit', ['validate-config', file], {
      env: { ...gitEnv, HOME: work, PRE_COMMIT_HOME: path.join(work, 'cache') },
      encoding: 'utf8',
    });
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.status).toBe(0);
    const ids = [...readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8').matchAll(/^- id: (\S+)$/gm)].map(
      (m) => m[1],
    );
    expect([...block!.matchAll(/- id: (\S+)/g)].map((m) => m[1])).toEqual(ids);
  });

  test('k8s-windows-lint fails on a manifest with an error, naming it', () => {
    const r = preCommit(scratch('lint-bad', BAD, ['k8s-windows-lint']));
    expect(r.status).toBe(1);
    expect(r.output).toMatch(/k8s-windows lint\.+Failed/);
    expect(r.output).toContain('windows-forbidden-field');
    expect(r.output).toContain('k8s/web.yaml');
  });

  test('a committed file named like an option is linted as a file, never taken as one', () => {
    const dir = scratch('option-named', GOOD, ['k8s-windows-lint']);
    // Sorted first, it would have been `--config=x.yaml` on the command line: a config that turns every rule off.
    writeFileSync(path.join(dir, 'x.yaml'), 'rules:\n  windows-forbidden-field: off\n');
    writeFileSync(path.join(dir, '--config=x.yaml'), BAD);
    git(dir, 'add', '-A');
    const r = preCommit(dir);
    expect(r.status).toBe(1);
    expect(r.output).toContain('windows-forbidden-field');
    expect(r.output).toContain('--config=x.yaml');
  });

  test('k8s-windows-lint passes on a good manifest (and on YAML that is no manifest, like the config itself)', () => {
    const r = preCommit(scratch('lint-good', GOOD, ['k8s-windows-lint']));
    expect(r.output).toMatch(/k8s-windows lint\.+Passed/);
    expect(r.status).toBe(0);
  });

  test('k8s-windows-fix rewrites the file (pre-commit fails: files were modified), then passes', () => {
    const dir = scratch('fix', BAD, ['k8s-windows-fix']);
    const first = preCommit(dir);
    expect(first.status).toBe(1);
    expect(first.output).toMatch(/k8s-windows fix\.+Failed/);
    expect(first.output).toContain('files were modified by this hook');
    const fixed = readFileSync(path.join(dir, 'k8s/web.yaml'), 'utf8');
    expect(fixed).not.toContain('runAsUser');
    expect(fixed).toBe(BAD.replace(/\n {10}securityContext:\n {12}runAsUser: 1000/, ''));
    git(dir, 'add', '-A');
    const second = preCommit(dir);
    expect(second.output).toMatch(/k8s-windows fix\.+Passed/);
    expect(second.status).toBe(0);
  });

  test('without k8s-windows installed the hook says how to install it', () => {
    const dir = scratch('missing', GOOD, ['k8s-windows-lint']);
    rmSync(path.join(dir, 'node_modules'), { recursive: true });
    const r = spawnSync('pre-commit', ['run', '--all-files', '--color', 'never'], {
      cwd: dir,
      env: { ...gitEnv, HOME: work, PRE_COMMIT_HOME: path.join(work, 'cache'), PATH: pathWithout('k8s-windows') },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toContain(
      'k8s-windows: not installed: add it to the repository (npm install --save-dev k8s-windows)',
    );
  });
});
