#!/usr/bin/env bash
# Releases the package: the release commit a version tag names, then its publication to npm (the steps of
# .github/workflows/release.yml after the tests), in one script so they are tested here
# (test/cli/release.e2e.test.ts; `scripts/release.sh --dry-run` in .ci/run).
#
#   scripts/release.sh tag          make the release commit on top of HEAD and tag it v<package.json version>
#   scripts/release.sh [--dry-run]  publish the release commit HEAD is (the workflow runs this on the pushed tag)
#
# A release commit is the source commit plus its compiled build, with no `prepare` or `build` script in
# package.json (the build script is kept as `compile`). Installs from git at a version tag then need no build:
# `npm install git+https://…#v1.2.3`, and pre-commit's hooks at `rev: v1.2.3`. A global install from git at a
# source commit cannot build reliably: npm runs the git dependency's preparation (`npm install` in the clone) with
# the outer `--global`, so it installs the clone into the global prefix while the outer install extracts there
# (npm/cli#8440; ENOTEMPTY and TAR_ENTRY_ERROR with pre-commit 4.7 and npm 11.19), and pre-commit installs node
# hooks with `npm install -g`. npm starts that preparation only for a package.json with one of the scripts
# prepare, build, prepack, preinstall, install or postinstall, so a release commit has none of them.
#
# tag: a clean tree at a source commit, dev dependencies installed (npm ci), no tag v<version> yet. Builds afresh,
# commits every build file the package publishes (`npm pack`'s list) and the rewritten package.json, tags the
# commit; pushing the tag is left to you.
# publish:
# 1. The version tag (GITHUB_REF_NAME on a tag push, else a v* tag on HEAD) must be v<package.json version>.
# 2. The working tree must be clean: what is published is what the tag names.
# 3. HEAD must be a release commit, and its committed build what `npm run compile` makes of its sources.
# 4. package.json as `npm pkg fix` leaves it (npm publish rewrites the rest with a warning); `npm pack`, then the
#    tarball must hold package.json's bin, main, types and every exports target.
# 5. `npm publish <tarball> --provenance --access public`: the tarball checked, not a second build.
# --dry-run does every step with `npm publish --dry-run`; with no tag on HEAD, an unclean tree or a source commit
# it says what a release would refuse and goes on (a source commit's pack runs its `prepare`, the build), so it
# runs in any checkout.
set -euo pipefail

dry_run=false
mode=publish
case ${1:-} in
--dry-run) dry_run=true ;;
tag) mode=tag ;;
'') ;;
*)
  echo "release.sh: unknown argument '$1': 'tag' makes the release commit, '--dry-run' publishes nothing." >&2
  exit 2
  ;;
esac

cd "$(dirname "$0")/.."
name=$(node -p 'require("./package.json").name')
version=$(node -p 'require("./package.json").version')
problems=0
refuse() {
  if $dry_run; then
    echo "release.sh: (dry run) a release would stop here: $1" >&2
  else
    echo "release.sh: $1" >&2
    problems=1
  fi
}
# The scripts for which npm prepares a git dependency (pacote's git fetcher) and that a release commit lacks.
PREPARING_SCRIPTS='prepare build prepack preinstall install postinstall'
# Prints the preparing scripts package.json has, space-separated (none: empty).
preparing_scripts() {
  node -e '
    const scripts = require(process.cwd() + "/package.json").scripts ?? {};
    console.log(process.argv[1].split(" ").filter((s) => scripts[s] !== undefined).join(" "));
  ' "$PREPARING_SCRIPTS"
}

if [[ $mode == tag ]]; then
  # The release commit, made from a clean source commit with its dev dependencies installed.
  if [[ -n $(git status --porcelain) ]]; then
    echo "release.sh: the working tree has changes that are not committed: a release commit holds what is committed and its build." >&2
    exit 1
  fi
  if [[ -z $(preparing_scripts) ]]; then
    echo "release.sh: HEAD is a release commit already (package.json has none of: $PREPARING_SCRIPTS): make the release commit from the source commit." >&2
    exit 1
  fi
  if git rev-parse -q --verify "refs/tags/v$version" >/dev/null; then
    echo "release.sh: the tag v$version exists: set the next version in package.json (npm version --no-git-tag-version <version>), commit, and run this again." >&2
    exit 1
  fi
  if ! node -p 'require.resolve("typescript")' >/dev/null 2>&1; then
    echo "release.sh: the dev dependencies are not installed: run npm ci, then this again." >&2
    exit 1
  fi
  source_commit=$(git rev-parse HEAD)
  # A fresh build: nothing left in build/ from earlier builds or tests reaches the commit.
  rm -rf build
  npm run build --silent
  # Every file the package publishes that git does not hold yet: the build (npm pack's own list, no script run).
  npm pack --dry-run --json --ignore-scripts --loglevel=error | node -e '
    const [pack] = JSON.parse(require("fs").readFileSync(0, "utf8"));
    for (const f of pack.files) console.log(f.path);
  ' >"$(git rev-parse --git-dir)/release-files"
  git add --force --pathspec-from-file="$(git rev-parse --git-dir)/release-files"
  rm "$(git rev-parse --git-dir)/release-files"
  # package.json without the scripts that make npm prepare a git dependency; the build script stays as `compile`.
  node -e '
    const fs = require("fs");
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
    const scripts = {};
    for (const [name, command] of Object.entries(pkg.scripts ?? {})) {
      if (name === "build") scripts.compile = command;
      else if (!process.argv[1].split(" ").includes(name)) scripts[name] = command;
    }
    pkg.scripts = scripts;
    fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n");
  ' "$PREPARING_SCRIPTS"
  git add package.json
  git commit --quiet --message "Release v$version" --message "The source commit $source_commit and its compiled build, with package.json's build script as \`compile\` and no prepare script: installs from git at this tag need no build (scripts/release.sh)."
  git tag --annotate "v$version" --message "$name v$version"
  echo "release.sh: tagged v$version: the release commit $(git rev-parse --short HEAD) on top of ${source_commit:0:12} ($(wc -l <<<"$(git diff --name-only HEAD^ HEAD)") files)."
  echo "release.sh: push it with \`git push origin v$version\`: the release workflow tests the tag and publishes it."
  exit 0
fi

# 1. The tag.
if [[ ${GITHUB_REF_TYPE:-} == tag && -n ${GITHUB_REF_NAME:-} ]]; then
  tag=$GITHUB_REF_NAME
else
  tag=$(git tag --points-at HEAD --list 'v*' | head -n 1)
fi
if [[ -z $tag ]]; then
  refuse "HEAD has no version tag: make the release commit and its tag with scripts/release.sh tag, and push the tag."
elif [[ $tag != "v$version" ]]; then
  # A tag that names another version is wrong even in a dry run.
  echo "release.sh: the tag $tag does not match package.json's version $version: tag v$version, or set \"version\": \"${tag#v}\" in package.json and tag that commit." >&2
  exit 1
fi

# 2. A clean tree (untracked files count: `npm pack` would not see them, but a build might).
dirty=$(git status --porcelain)
if [[ -n $dirty ]]; then
  refuse "the working tree has changes that are not committed:
$dirty"
fi

# 3. A release commit, whose build is what its sources compile to.
preparing=$(preparing_scripts)
if [[ -n $preparing ]]; then
  refuse "HEAD is a source commit (package.json has the scripts: $preparing), not a release commit: make the release commit and its tag with scripts/release.sh tag."
elif [[ $problems -eq 0 ]] && node -e 'process.exit(require(process.cwd() + "/package.json").scripts?.compile ? 0 : 1)'; then
  npm run compile --silent
  changed=$(git status --porcelain --untracked-files=no)
  if [[ -n $changed ]]; then
    echo "release.sh: the committed build is not what its sources compile to (npm run compile changed:
$changed
): make the release commit again with scripts/release.sh tag." >&2
    exit 1
  fi
fi
if [[ $problems -ne 0 ]]; then exit 1; fi

# 4. Pack, and check the tarball against package.json.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# npm publish rewrites what it finds wrong in package.json (a './' bin path, a bin name with a directory) and only
# warns: the fixes `npm pkg fix` would make must already be committed.
mkdir "$out/fix"
cp package.json "$out/fix/"
(cd "$out/fix" && npm pkg fix --loglevel=error)
if ! cmp -s package.json "$out/fix/package.json"; then
  diff -u package.json "$out/fix/package.json" >&2 || true
  echo "release.sh: npm would rewrite package.json when publishing (the diff above): run \`npm pkg fix\` and commit the result." >&2
  exit 1
fi
npm pack --json --pack-destination "$out" --loglevel=warn >"$out/pack.json" 2>"$out/pack.log" || {
  cat "$out/pack.log" >&2
  echo "release.sh: npm pack failed." >&2
  exit 1
}
tarball=$(node -e '
  const [pack] = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const pkg = require(process.cwd() + "/package.json");
  const files = new Set(pack.files.map((f) => f.path));
  const wanted = [];
  const add = (what, target) => typeof target === "string" && wanted.push([what, target.replace(/^\.\//, "")]);
  for (const [bin, target] of Object.entries(typeof pkg.bin === "string" ? { [pkg.name]: pkg.bin } : pkg.bin ?? {}))
    add(`bin ${bin}`, target);
  add("main", pkg.main);
  add("types", pkg.types);
  const walk = (key, target) =>
    typeof target === "string"
      ? add(`exports["${key}"]`, target)
      : Object.values(target ?? {}).forEach((t) => walk(key, t));
  for (const [key, target] of Object.entries(pkg.exports ?? {})) walk(key, target);
  const missing = wanted.filter(([, file]) => !files.has(file));
  for (const [what, file] of missing) console.error(`release.sh: the tarball lacks ${file} (package.json ${what}).`);
  if (missing.length > 0) process.exit(1);
  console.log(pack.filename);
' "$out/pack.json")
echo "release.sh: packed $tarball ($(du -h "$out/$tarball" | cut -f1)), every bin, main, types and exports target in it."

# 5. Publish the tarball.
publish=(npm publish "$out/$tarball" --provenance --access public)
if $dry_run; then publish+=(--dry-run); fi
"${publish[@]}"
if $dry_run; then
  echo "release.sh: (dry run) $name@$version would be published from $tarball."
else
  echo "release.sh: published $name@$version."
fi
