#!/usr/bin/env bash
# The lint step of the k8s-windows GitHub Action (action.yml): lints the input paths into a SARIF file, prints the
# findings as workflow commands, and sets the step's outputs (sarif-file, exit-code, errors, warnings, notes). It
# exits 0 whatever lint found, so the SARIF upload still runs; the action's last step fails the job on exit-code.
# Reads what a runner sets: GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_ACTION_PATH, and the INPUT_* of action.yml.
set -euo pipefail

: "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set: this script runs as a step of the k8s-windows action}"
cd "${GITHUB_WORKSPACE:-$PWD}"

sarif=${INPUT_SARIF_FILE:-k8s-windows.sarif}
fail_on=${INPUT_FAIL_ON:-error}
action_path=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}

# Which k8s-windows: the npm version asked for, else the repository's own, else this action's checkout. At a
# version tag (a release commit: scripts/release.sh) the checkout carries the build and only its runtime
# dependencies are installed; at a source commit `npm ci` installs everything and its `prepare` builds. Either
# happens the first time a job needs it.
if [[ -n ${INPUT_VERSION:-} ]]; then
  cmd=(npx --yes "k8s-windows@${INPUT_VERSION}")
elif [[ -x node_modules/.bin/k8s-windows ]]; then
  cmd=(node_modules/.bin/k8s-windows)
else
  install=()
  if [[ ! -f $action_path/build/cli/main.js ]]; then
    install=(npm ci --no-audit --no-fund --loglevel=error)
  elif [[ ! -d $action_path/node_modules ]]; then
    install=(npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
  fi
  if ((${#install[@]} > 0)); then
    echo "::group::Installing k8s-windows from the action's checkout ($action_path): ${install[*]}"
    (cd "$action_path" && "${install[@]}") >&2 || {
      echo "::endgroup::"
      echo "::error title=k8s-windows::${install[*]} in the action's checkout ($action_path) failed (above): pin the action to a release tag, or set version: to a published k8s-windows version."
      echo "exit-code=2" >>"$GITHUB_OUTPUT"
      echo "sarif-file=" >>"$GITHUB_OUTPUT"
      exit 0
    }
    echo "::endgroup::"
  fi
  cmd=(node "$action_path/build/cli/main.js")
fi

# Paths and options split on white space (spaces, tabs, new lines), never glob-expanded.
set -f
# shellcheck disable=SC2206
paths=(${INPUT_PATHS:-.})
# shellcheck disable=SC2206
args=(${INPUT_ARGS:-})
set +f
[[ ${#paths[@]} -gt 0 ]] || paths=(.)

mkdir -p "$(dirname "$sarif")"
status=0
# Options first, then `--`: a path is never taken as an option (`paths: "m/bad.yaml --help"` lints a file named
# --help, it does not print the help and pass).
"${cmd[@]}" lint --format sarif --fail-on "$fail_on" ${args[@]+"${args[@]}"} -- "${paths[@]}" >"$sarif" || status=$?
if [[ ${INPUT_ANNOTATIONS:-true} == true && $status -ne 2 ]]; then
  # The same findings as annotations (lint's own messages went to the log with the first run).
  "${cmd[@]}" lint --format github --fail-on "$fail_on" ${args[@]+"${args[@]}"} -- "${paths[@]}" 2>/dev/null || true
fi

# Counts by level, suppressed results left out; an empty or broken log (a bad option) is no SARIF file.
counts=$(node -e '
  const fs = require("fs");
  let log;
  try { log = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch { process.exit(0); }
  const n = { error: 0, warning: 0, note: 0 };
  for (const run of log.runs ?? [])
    for (const r of run.results ?? [])
      if (!(r.suppressions ?? []).some((s) => s.status === "accepted") && r.level in n) n[r.level]++;
  console.log(`${n.error} ${n.warning} ${n.note}`);
' "$sarif")
if [[ -n $counts ]]; then
  read -r errors warnings notes <<<"$counts"
  {
    echo "sarif-file=$sarif"
    echo "errors=$errors"
    echo "warnings=$warnings"
    echo "notes=$notes"
  } >>"$GITHUB_OUTPUT"
else
  rm -f "$sarif"
  echo "sarif-file=" >>"$GITHUB_OUTPUT"
fi
echo "exit-code=$status" >>"$GITHUB_OUTPUT"
exit 0
