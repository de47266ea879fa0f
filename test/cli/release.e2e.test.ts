/**
 * scripts/release.sh, the publishing steps of .github/workflows/release.yml, on a small package in a scratch git
 * repository (the script itself copied in, as it is in this repository): the tag and version check, the clean tree,
 * the tarball's check against package.json, and the `npm publish` it runs. npm is the real one, offline (nothing
 * leaves the machine); `npm publish` itself is recorded by a shim on PATH where a test must not publish.
 * `scripts/release.sh --dry-run` on this repository runs in .ci/run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '../..');

let work: string;
beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), 'k8s-windows-release-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const gitEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  HOME: work,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
});
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, env: gitEnv(), encoding: 'utf8' });

interface Pkg {
  readonly bin?: Record<string, string>;
  readonly files?: readonly string[];
  /** A source package: out/ is built by `build` (and `prepare`), git-ignored, not committed. */
  readonly source?: boolean;
}

/** What the source package's build writes into out/. */
const MAKE = `const fs = require('fs');
fs.mkdirSync('out', { recursive: true });
fs.writeFileSync('out/index.js', 'module.exports = { built: true };\\n');
fs.writeFileSync('out/index.d.ts', 'export {};\\n');
fs.writeFileSync('out/cli.js', '#!/usr/bin/env node\\n');
`;

/** A committed package `tiny@1.2.3` with a bin, main, types and exports, and scripts/release.sh. */
function repo(pkg: Pkg = {}): string {
  const dir = path.join(work, 'tiny');
  const files: Record<string, string> = {
    'package.json': JSON.stringify(
      {
        name: 'tiny',
        version: '1.2.3',
        main: './out/index.js',
        types: './out/index.d.ts',
        exports: { '.': { types: './out/index.d.ts', default: './out/index.js' }, './cli': './out/cli.js' },
        bin: pkg.bin ?? { tiny: 'out/cli.js' },
        files: pkg.files ?? ['out/'],
        ...(pkg.source ? { scripts: { build: 'node make.js', prepare: 'npm run build', test: 'true' } } : {}),
      },
      null,
      2,
    ),
    ...(pkg.source
      ? { 'make.js': MAKE, '.gitignore': 'out/\nnode_modules/\n', 'node_modules/typescript/index.js': '' }
      : {
          'out/index.js': 'module.exports = {};\n',
          'out/index.d.ts': 'export {};\n',
          'out/cli.js': '#!/usr/bin/env node\n',
        }),
    'scripts/release.sh': readFileSync(path.join(ROOT, 'scripts/release.sh'), 'utf8'),
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  chmodSync(path.join(dir, 'scripts/release.sh'), 0o755);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'tiny');
  return dir;
}

/** An `npm` that records `publish` calls (their arguments, the tarball's name for its path) and runs the rest. */
function publishShim(): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const bin = path.join(work, 'bin');
  mkdirSync(bin);
  const calls = path.join(work, 'publish-calls');
  const npm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  writeFileSync(
    path.join(bin, 'npm'),
    `#!/bin/sh\nif [ "$1" = publish ]; then\n  shift\n  t=$1; shift\n  echo "publish $(basename "$t") $*" >> "${calls}"\n  exit 0\nfi\nexec "${npm}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'npm'), 0o755);
  return {
    env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
    calls: () =>
      readFileSync(calls, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
  };
}

function release(dir: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync('scripts/release.sh', args, {
    cwd: dir,
    // Offline: npm publish --dry-run asks the registry whether the version exists; here nothing leaves the machine.
    env: { ...gitEnv(), npm_config_offline: 'true', npm_config_update_notifier: 'false', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/release.sh', () => {
  test('on its tag, clean: packs, checks the tarball, publishes it with provenance and public access', () => {
    const dir = repo();
    git(dir, 'tag', 'v1.2.3');
    const shim = publishShim();
    const r = release(dir, [], shim.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(shim.calls()).toEqual(['publish tiny-1.2.3.tgz --provenance --access public']);
    expect(r.stdout).toMatch(/^release\.sh: packed tiny-1\.2\.3\.tgz \(\S+\), every bin, main, types and exports/m);
    expect(r.stdout).toContain('release.sh: published tiny@1.2.3.');
  });

  test("the workflow's tag (GITHUB_REF_NAME) is the one checked", () => {
    const dir = repo();
    const shim = publishShim();
    const r = release(dir, [], { ...shim.env, GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v1.2.4' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'release.sh: the tag v1.2.4 does not match package.json\'s version 1.2.3: tag v1.2.3, or set "version": "1.2.4" in package.json and tag that commit.\n',
    );
    expect(release(dir, [], { ...shim.env, GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v1.2.3' }).status).toBe(0);
    expect(shim.calls()).toEqual(['publish tiny-1.2.3.tgz --provenance --access public']);
  });

  test('a tag that names another version fails, in a dry run too', () => {
    const dir = repo();
    git(dir, 'tag', 'v2.0.0');
    const r = release(dir, ['--dry-run']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("the tag v2.0.0 does not match package.json's version 1.2.3");
  });

  test('no tag and an unclean tree: a release refuses both; a dry run names them and goes on', () => {
    const dir = repo();
    writeFileSync(path.join(dir, 'out/index.js'), 'module.exports = { changed: true };\n');
    writeFileSync(path.join(dir, 'notes.txt'), 'untracked\n');
    const shim = publishShim();
    const r = release(dir, [], shim.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      [
        'release.sh: HEAD has no version tag: make the release commit and its tag with scripts/release.sh tag, and push the tag.',
        'release.sh: the working tree has changes that are not committed:',
        ' M out/index.js',
        '?? notes.txt',
        '',
      ].join('\n'),
    );
    const dry = release(dir, ['--dry-run']);
    expect(dry.stderr).toContain(
      'release.sh: (dry run) a release would stop here: HEAD has no version tag: make the release commit',
    );
    expect(dry.stderr).toContain('release.sh: (dry run) a release would stop here: the working tree has changes');
    expect(dry.stdout).toContain('release.sh: (dry run) tiny@1.2.3 would be published from tiny-1.2.3.tgz.');
    expect(dry.status).toBe(0);
  });

  test('a main, types or exports target the tarball lacks stops the release before publishing', () => {
    const dir = repo({ files: ['out/index.js'] });
    git(dir, 'tag', 'v1.2.3');
    const shim = publishShim();
    const r = release(dir, [], shim.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      [
        'release.sh: the tarball lacks out/index.d.ts (package.json types).',
        'release.sh: the tarball lacks out/index.d.ts (package.json exports["."]).',
        '',
      ].join('\n'),
    );
    expect(() => shim.calls()).toThrow(/ENOENT/);
  });

  test("a package.json npm would rewrite on publishing (a './' bin path) stops the release, with the diff", () => {
    const dir = repo({ bin: { tiny: './out/cli.js' } });
    git(dir, 'tag', 'v1.2.3');
    const shim = publishShim();
    const r = release(dir, [], shim.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('-    "tiny": "./out/cli.js"\n+    "tiny": "out/cli.js"\n');
    expect(r.stderr).toContain(
      'release.sh: npm would rewrite package.json when publishing (the diff above): run `npm pkg fix` and commit the result.\n',
    );
    expect(() => shim.calls()).toThrow(/ENOENT/);
  });

  test('an unknown argument', () => {
    const r = release(repo(), ['--tag']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "release.sh: unknown argument '--tag': 'tag' makes the release commit, '--dry-run' publishes nothing.\n",
    );
  });
});

describe('scripts/release.sh tag: the release commit, which installs from git at its tag without a build', () => {
  const scriptsAt = (dir: string, ref: string): unknown =>
    (JSON.parse(git(dir, 'show', `${ref}:package.json`)) as { scripts?: unknown }).scripts;

  test('commits the fresh build and package.json without prepare or build (kept as compile), and tags it', () => {
    const dir = repo({ source: true });
    const source = git(dir, 'rev-parse', 'HEAD').trim();
    const r = release(dir, ['tag']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const head = git(dir, 'rev-parse', '--short', 'HEAD').trim();
    expect(r.stdout).toBe(
      [
        `release.sh: tagged v1.2.3: the release commit ${head} on top of ${source.slice(0, 12)} (4 files).`,
        'release.sh: push it with `git push origin v1.2.3`: the release workflow tests the tag and publishes it.',
        '',
      ].join('\n'),
    );
    expect(git(dir, 'rev-parse', 'HEAD^').trim()).toBe(source);
    expect(git(dir, 'rev-parse', 'v1.2.3^{commit}').trim()).toBe(git(dir, 'rev-parse', 'HEAD').trim());
    expect(git(dir, 'diff', '--name-status', 'HEAD^', 'HEAD').split('\n')).toEqual([
      'A\tout/cli.js',
      'A\tout/index.d.ts',
      'A\tout/index.js',
      'M\tpackage.json',
      '',
    ]);
    expect(git(dir, 'show', 'HEAD:out/index.js')).toBe('module.exports = { built: true };\n');
    expect(scriptsAt(dir, 'HEAD')).toEqual({ compile: 'node make.js', test: 'true' });
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  test('refuses a release commit, an existing tag, an unclean tree and missing dev dependencies', () => {
    const dir = repo({ source: true });
    expect(release(dir, ['tag']).status).toBe(0);
    const again = release(dir, ['tag']);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      'release.sh: HEAD is a release commit already (package.json has none of: prepare build prepack preinstall install postinstall): make the release commit from the source commit.\n',
    );
    git(dir, 'checkout', '-q', 'HEAD^');
    expect(release(dir, ['tag']).stderr).toBe(
      'release.sh: the tag v1.2.3 exists: set the next version in package.json (npm version --no-git-tag-version <version>), commit, and run this again.\n',
    );
    git(dir, 'tag', '-d', 'v1.2.3');
    writeFileSync(path.join(dir, 'notes.txt'), 'untracked\n');
    expect(release(dir, ['tag']).stderr).toBe(
      'release.sh: the working tree has changes that are not committed: a release commit holds what is committed and its build.\n',
    );
    rmSync(path.join(dir, 'notes.txt'));
    rmSync(path.join(dir, 'node_modules'), { recursive: true });
    expect(release(dir, ['tag']).stderr).toBe(
      'release.sh: the dev dependencies are not installed: run npm ci, then this again.\n',
    );
  });

  test('publishing: a release commit whose build its sources make is published; a source commit is refused', () => {
    const dir = repo({ source: true });
    git(dir, 'tag', 'v1.2.3');
    const shim = publishShim();
    const source = release(dir, [], shim.env);
    expect(source.status).toBe(1);
    expect(source.stderr).toBe(
      'release.sh: HEAD is a source commit (package.json has the scripts: prepare build), not a release commit: make the release commit and its tag with scripts/release.sh tag.\n',
    );
    git(dir, 'tag', '-d', 'v1.2.3');
    expect(release(dir, ['tag']).status).toBe(0);
    const r = release(dir, [], shim.env);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(shim.calls()).toEqual(['publish tiny-1.2.3.tgz --provenance --access public']);
  });

  test('publishing: a committed build its sources do not make stops the release', () => {
    const dir = repo({ source: true });
    expect(release(dir, ['tag']).status).toBe(0);
    writeFileSync(path.join(dir, 'out/index.js'), 'module.exports = { edited: true };\n');
    git(dir, 'commit', '-qam', 'an edited build');
    git(dir, 'tag', '-f', 'v1.2.3');
    const shim = publishShim();
    const r = release(dir, [], shim.env);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'release.sh: the committed build is not what its sources compile to (npm run compile changed:\n M out/index.js\n): make the release commit again with scripts/release.sh tag.\n',
    );
    expect(() => shim.calls()).toThrow(/ENOENT/);
  });
});
