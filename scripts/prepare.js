#!/usr/bin/env node
/**
 * `npm run prepare`: builds the package (`npm run build`), as npm runs it after `npm install` in this checkout, on
 * `npm pack` and `npm publish`, and when it installs k8s-windows from git (`npm install github:…`, pre-commit's
 * `language: node` hooks). Plain JavaScript, no dependency: it runs before anything is installed.
 *
 * A git dependency is built in a clone of the repository where npm first installs the dev dependencies. A global
 * install from git (`npm install -g git+…`, which is how pre-commit installs a node hook) does not: the clone's
 * install inherits `--global` and leaves the clone without its dev dependencies, so the build would fail with
 * `tsc: not found`. Then this script installs them into the clone from the lockfile (`npm ci`, install scripts
 * skipped: the build needs none of them) and builds.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const npm = process.env.npm_execpath;

/** Runs npm (the one running this script, else the one on PATH) in the checkout; exits when it fails. */
function runNpm(args, env = process.env) {
  const r = npm
    ? spawnSync(process.execPath, [npm, ...args], { cwd: root, env, stdio: 'inherit' })
    : spawnSync('npm', args, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.error) throw r.error;
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync(path.join(root, 'node_modules/typescript/package.json'))) {
  process.stderr.write(
    'k8s-windows prepare: the dev dependencies the build needs are not installed here (a global install from git): ' +
      'installing them from package-lock.json.\n',
  );
  runNpm(['ci', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
    ...process.env,
    npm_config_global: 'false',
    npm_config_location: 'project',
    npm_config_omit: '',
  });
}
runNpm(['run', 'build']);
