#!/usr/bin/env bash
# The install routes that need no k8s-windows on the npm registry, taken as a user takes them, from a clone of this
# repository at HEAD (what is committed; run by .ci/run). In the clone, `scripts/release.sh tag` first makes the
# release commit and its version tag, as a release does (the build committed, no `prepare`: see release.sh).
# 1. npm: `npm install git+file://<clone>#<ref>` in a new project, at the source commit (npm builds it: `prepare`)
#    and at the version tag (nothing to build): `npx k8s-windows --version` prints package.json's version and every
#    entry in package.json's exports resolves.
# 2. pre-commit: the hooks (.pre-commit-hooks.yaml, `language: node`) in a new git repository where nothing of
#    k8s-windows is installed, `rev:` the version tag: pre-commit installs them itself (`npm install -g git+file://…`),
#    fix then lint as docs/ci.md shows, and a committed file named `--config=x.yaml` is linted, never read as an
#    option. At a source commit the global install stops with scripts/prepare.js's message (npm/cli#8440), not
#    with npm's race.
# npm installs from the registry, cache first (--prefer-offline). About 4 minutes on an idle 2-core machine.
#
# Usage: scripts/git-install.sh [npm|pre-commit|all]   (default all, as CI runs it)
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
tag=v$version

# The release commit and its tag, as scripts/release.sh makes them (the dev dependencies first: it builds). On a
# release commit already (the release workflow's checkout of a pushed tag), that commit and its parent, the source.
t=$SECONDS
if node -e '
  const s = require(process.argv[1]).scripts ?? {};
  process.exit(["prepare", "build", "prepack", "preinstall", "install", "postinstall"].some((n) => s[n]) ? 1 : 0);
' "$work/k8s-windows/package.json"; then
  tag=$rev
  rev=$(git -C "$work/k8s-windows" rev-parse --verify --quiet 'HEAD^') || {
    echo "FAIL HEAD is a release commit and its parent, the source commit, is not in this clone (a shallow checkout: fetch-depth: 2)" >&2
    exit 1
  }
  echo "ok   HEAD is a release commit (${tag:0:12}), its source commit ${rev:0:12}"
else
  (
    cd "$work/k8s-windows"
    npm ci --ignore-scripts --loglevel=error >"$work/npm-ci.log" 2>&1 || {
      cat "$work/npm-ci.log" >&2
      exit 1
    }
    scripts/release.sh tag >"$work/release-tag.log" 2>&1 || {
      cat "$work/release-tag.log" >&2
      exit 1
    }
    rm -rf node_modules build
  ) || {
    echo "FAIL scripts/release.sh tag in a clone at ${rev:0:12}" >&2
    exit 1
  }
  echo "ok   scripts/release.sh tag: $tag on top of ${rev:0:12} ($((SECONDS - t)) s)"
fi

# 1. npm install <git URL>, at the source commit and at the version tag.
install_from() {
  local ref=$1 app=$work/app-$1
  local t=$SECONDS
  mkdir "$app"
  cd "$app"
  echo '{ "name": "app", "version": "1.0.0", "private": true }' >package.json
  npm install --loglevel=error "git+file://$work/k8s-windows#$ref" >"$work/npm-install.log" 2>&1 || {
    cat "$work/npm-install.log" >&2
    fail "npm install git+file://…#$ref"
    return
  }
  local got
  got=$(npx --no-install k8s-windows --version 2>&1) || true
  [[ $got == "$version" ]] || fail "npx k8s-windows --version printed '$got', not '$version' (#$ref)"
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
  ' || fail "an entry of package.json's exports does not resolve from the git install at $ref"
  echo "ok   npm install git+file://…#$ref: k8s-windows --version $got, every entry resolves ($((SECONDS - t)) s)"
}
if [[ $routes != pre-commit ]]; then
  install_from "$rev"
  install_from "$tag"
fi

# 2. The pre-commit hooks at the version tag, nothing installed in the repository.
if [[ $routes != npm ]]; then
t=$SECONDS
export PRE_COMMIT_HOME="$work/pre-commit-home"
bad=$(cat "$root/test/cli/fixtures/windows-web.yaml")
repo() {
  local at=${2:-$tag}
  rm -rf "$work/$1"
  mkdir -p "$work/$1/k8s"
  cd "$work/$1"
  git init --quiet
  printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: k8s-windows-fix\n      - id: k8s-windows-lint\n' \
    "$work/k8s-windows" "$at" >.pre-commit-config.yaml
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
echo "ok   pre-commit hooks at $tag: fix then lint, a file named like an option ($((SECONDS - t)) s)"

# At a source commit, npm cannot prepare the global install (npm/cli#8440): prepare.js stops it with the way out.
t=$SECONDS
repo source-commit "$rev"
printf '%s\n' "$bad" >k8s/web.yaml
git add -A
if run k8s-windows-lint --all-files; then fail "pre-commit installed the hooks at a source commit"; fi
expect_log 'a global install from git needs a version tag, not a source commit' 'the hooks at a source commit'
expect_log 'pre-commit: set `rev:` to a version tag' 'the hooks at a source commit'
echo "ok   pre-commit hooks at the source commit ${rev:0:12}: refused with the way out ($((SECONDS - t)) s)"
fi

echo "git-install: $((SECONDS - started)) s in all"
if ((failures > 0)); then exit 1; fi
