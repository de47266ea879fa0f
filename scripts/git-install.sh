#!/usr/bin/env bash
# The install routes that need no k8s-windows on the npm registry, taken as a user takes them, from a clone of this
# repository at HEAD (what is committed; run by .ci/run):
# 1. `npm install git+file://<clone>#<sha>` in a new project: `npx k8s-windows --version` prints package.json's
#    version and every entry in package.json's exports loads with require().
# 2. The pre-commit hooks (.pre-commit-hooks.yaml, `language: node`) in a new git repository where nothing of
#    k8s-windows is installed, the hook repository being the clone at that sha: pre-commit installs them itself
#    (npm install -g git+file://…, which builds the clone: scripts/prepare.js), fix then lint as docs/ci.md shows;
#    and a committed file named `--config=x.yaml` is linted, never read as an option.
# npm installs from the registry, cache first (--prefer-offline): the dev dependencies the build needs, twice (the
# project's install and pre-commit's), and builds twice. About 6 minutes of CPU (user and system; measured: 5.6),
# so about 4 to 5 minutes on an idle 2-core machine (19.5 on one at load 20).
#
# Usage: scripts/git-install.sh [npm|pre-commit|all]   (default all; CI runs `npm`: the pre-commit route's global
# install from git failed in a CI run, npm's git-dependency preparation racing in the global prefix, see the note at
# route 2).
set -euo pipefail
routes=${1:-all}
case $routes in
  npm | pre-commit | all) ;;
  *)
    echo "git-install.sh: unknown route '$routes': npm, pre-commit or all" >&2
    exit 2
    ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS
export npm_config_prefer_offline=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid \
  GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.invalid
failures=0
fail() {
  echo "FAIL $1" >&2
  failures=$((failures + 1))
}

git clone --quiet "$root" "$work/k8s-windows"
rev=$(git -C "$work/k8s-windows" rev-parse HEAD)
version=$(node -p 'require(process.argv[1]).version' "$work/k8s-windows/package.json")

# 1. npm install <git URL>.
if [[ $routes != pre-commit ]]; then
t=$SECONDS
mkdir "$work/app"
cd "$work/app"
echo '{ "name": "app", "version": "1.0.0", "private": true }' >package.json
npm install --loglevel=error "git+file://$work/k8s-windows#$rev" >"$work/npm-install.log" 2>&1 || {
  cat "$work/npm-install.log" >&2
  fail "npm install git+file://…#$rev"
}
got=$(npx --no-install k8s-windows --version 2>&1) || true
[[ $got == "$version" ]] || fail "npx k8s-windows --version printed '$got', not '$version'"
node -e '
  const pkg = require("k8s-windows/package.json");
  const broken = [];
  // Every entry but the peer-dependent ones a user installs themselves (cdk8s, Pulumi): those resolve to a file.
  for (const key of Object.keys(pkg.exports).filter((k) => k !== "./package.json")) {
    const spec = key === "." ? "k8s-windows" : `k8s-windows/${key.slice(2)}`;
    try { require.resolve(spec); } catch (e) { broken.push(`${spec}: ${e.message.split("\n")[0]}`); }
  }
  require("k8s-windows");
  require("k8s-windows/facts");
  if (broken.length > 0) { console.error(broken.join("\n")); process.exit(1); }
' || fail "an entry of package.json's exports does not resolve from the git install"
echo "ok   npm install git+file://…#${rev:0:12}: k8s-windows --version $got, every entry resolves ($((SECONDS - t)) s)"
fi

# 2. The pre-commit hooks, nothing installed in the repository. Passed when first written; in a later run (a clean
# clone, pre-commit 4.7 from .tools, npm 11.19) pre-commit's `npm install -g git+file://…` failed in npm's
# git-dependency preparation (ENOTEMPTY under the global prefix's k8s-windows/node_modules while scripts/prepare.js
# ran): not yet understood, so CI runs route 1 only.
if [[ $routes != npm ]]; then
t=$SECONDS
export PRE_COMMIT_HOME="$work/pre-commit-home"
bad=$(cat "$root/test/cli/fixtures/windows-web.yaml")
repo() {
  rm -rf "$work/$1"
  mkdir -p "$work/$1/k8s"
  cd "$work/$1"
  git init --quiet
  printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: k8s-windows-fix\n      - id: k8s-windows-lint\n' \
    "$work/k8s-windows" "$rev" >.pre-commit-config.yaml
}
run() { pre-commit run --color never "$@" >"$work/pre-commit.log" 2>&1; }
expect_log() {
  grep -q -e "$1" "$work/pre-commit.log" || {
    cat "$work/pre-commit.log" >&2
    fail "$2: the output has no '$1'"
  }
}

repo fix-then-lint
printf '%s\n' "$bad" >k8s/web.yaml
git add -A
if run --all-files; then fail "pre-commit passed a manifest with a forbidden field"; fi
expect_log 'k8s-windows fix\.*Failed' 'the first run'
expect_log 'files were modified by this hook' 'the first run'
expect_log 'k8s-windows lint\.*Passed' 'the first run (lint after fix)'
grep -q runAsUser k8s/web.yaml && fail "fix left runAsUser in k8s/web.yaml"
git add -A
run --all-files || fail "the second run, after the fix was staged"
expect_log 'k8s-windows fix\.*Passed' 'the second run'
expect_log 'k8s-windows lint\.*Passed' 'the second run'

repo option-named
printf 'rules:\n  windows-forbidden-field: "off"\n' >x.yaml
printf '%s\n' "$bad" >./--config=x.yaml
git add -A
if run k8s-windows-lint --all-files; then fail "lint took a file named --config=x.yaml as an option"; fi
expect_log 'windows-forbidden-field' 'a file named --config=x.yaml'
expect_log '^--config=x\.yaml$' 'a file named --config=x.yaml'
echo "ok   pre-commit hooks from the repository at ${rev:0:12}: fix then lint, a file named like an option ($((SECONDS - t)) s)"
fi

echo "git-install: $((SECONDS - started)) s in all"
if ((failures > 0)); then exit 1; fi
