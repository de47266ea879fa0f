#!/usr/bin/env bash
# Publishes the package to npm: the steps of .github/workflows/release.yml after the tests, in one script so they are
# tested here (test/cli/release.e2e.test.ts, and `scripts/release.sh --dry-run` in .ci/run).
#
#   scripts/release.sh [--dry-run]
#
# 1. The version tag (GITHUB_REF_NAME on a tag push, else a v* tag on HEAD) must be v<package.json version>.
# 2. The working tree must be clean: what is published is what the tag names.
# 3. package.json as `npm pkg fix` leaves it (npm publish rewrites the rest with a warning); `npm pack` (its
#    `prepare` builds), then the tarball must hold package.json's bin, main, types and every exports target.
# 4. `npm publish <tarball> --provenance --access public`: the tarball checked, not a second build.
# --dry-run does every step with `npm publish --dry-run`; with no tag on HEAD and an unclean tree it says what a
# release would refuse and goes on, so it runs in any checkout.
set -euo pipefail

dry_run=false
case ${1:-} in
--dry-run) dry_run=true ;;
'') ;;
*)
  echo "release.sh: unknown argument '$1': the only option is --dry-run." >&2
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

# 1. The tag.
if [[ ${GITHUB_REF_TYPE:-} == tag && -n ${GITHUB_REF_NAME:-} ]]; then
  tag=$GITHUB_REF_NAME
else
  tag=$(git tag --points-at HEAD --list 'v*' | head -n 1)
fi
if [[ -z $tag ]]; then
  refuse "HEAD has no version tag: tag it v$version (git tag v$version) and push the tag."
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
if [[ $problems -ne 0 ]]; then exit 1; fi

# 3. Pack, and check the tarball against package.json.
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

# 4. Publish the tarball.
publish=(npm publish "$out/$tarball" --provenance --access public)
if $dry_run; then publish+=(--dry-run); fi
"${publish[@]}"
if $dry_run; then
  echo "release.sh: (dry run) $name@$version would be published from $tarball."
else
  echo "release.sh: published $name@$version."
fi
