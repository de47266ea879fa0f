#!/usr/bin/env node
/**
 * `npm run prepare`: builds the package (`npm run build`), as npm runs it after `npm install` in this checkout, on
 * `npm pack` and `npm publish`, and when it installs k8s-windows from git at a source commit (`npm install
 * github:…#main`). Plain JavaScript, no dependency: it runs before anything is installed.
 *
 * A global install from git at a source commit (`npm install -g git+…#<sha>`, which is how pre-commit installs a
 * node hook) cannot build reliably: npm prepares the clone with `npm install` inheriting `--global`, which installs
 * the clone into the global prefix while the outer install extracts the same package there (npm/cli#8440; seen as
 * ENOTEMPTY or TAR_ENTRY_ERROR, or as `tsc: not found`). So that case stops here with the way out: a version tag,
 * whose release commit carries the build and has no `prepare` (scripts/release.sh tag), so npm prepares nothing.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');

/** npm clones a git dependency into `<cache>/_cacache/tmp/git-clone…` and prepares it there. */
const inGitClone = /[\\/]_cacache[\\/]tmp[\\/]git-clone[^\\/]*$/.test(root);
if (process.env.npm_config_global === 'true' && inGitClone) {
  process.stderr.write(
    [
      'k8s-windows: a global install from git needs a version tag, not a source commit.',
      '  npm cannot build a git dependency during a global install (https://github.com/npm/cli/issues/8440).',
      '  A version tag (v0.1.0) names a release commit that carries the build, so nothing is built:',
      '  - pre-commit: set `rev:` to a version tag (pre-commit autoupdate picks the newest);',
      '  - npm: npm install -g git+https://github.com/<owner>/k8s-windows.git#v<version>;',
      '  - or install it into a project, where a source commit builds: npm install --save-dev git+https://…#<commit>.',
      '',
    ].join('\n'),
  );
  process.exit(1);
}

const npm = process.env.npm_execpath;
const r = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (r.error) throw r.error;
process.exit(r.status ?? 1);
