#!/usr/bin/env sh
# The pre-commit hooks' entry (.pre-commit-hooks.yaml): runs the k8s-windows the repository being checked has
# installed (node_modules/.bin, as `npx --no-install` would find it), else the one on PATH. pre-commit's own
# `language: node` cannot install this package from its git repository: the CLI is compiled TypeScript that is
# not committed, and npm does not build a git dependency's `prepack` output when installing it globally.
set -eu
# pre-commit appends the file names to the hook's entry and the user's args, so they cannot be put after `--`:
# instead a file name that starts with '-' is passed as ./NAME. A committed file named --config=x.yaml is then a
# file to lint, never an option that turns the hook green.
command=$1
shift
for arg in "$@"; do
  shift
  case $arg in
  -*) if [ -f "$arg" ]; then arg="./$arg"; fi ;;
  esac
  set -- "$@" "$arg"
done
set -- "$command" "$@"
if [ -x node_modules/.bin/k8s-windows ]; then
  exec node_modules/.bin/k8s-windows "$@"
fi
if command -v k8s-windows >/dev/null 2>&1; then
  exec k8s-windows "$@"
fi
echo "k8s-windows: not installed: add it to the repository (npm install --save-dev k8s-windows) or install it on PATH (npm install --global k8s-windows)." >&2
exit 2
