#!/usr/bin/env bash
# What the tests need beyond `npm ci`, built without root into .tools/bin (git-ignored), which the tests look in
# first (test/helpers/tools.ts). npm runs it before `npm test` (the `pretest` script); CONTRIBUTING.md (Set up) says
# what must exist first: Node.js 22+, Go (go.mod's version, 1.26) and Python 3 with venv.
#   helm, kustomize       lint and fix render charts and kustomizations with the real tools (go install)
#   registry              CNCF Distribution, the image resolver's tests' registry (go install …/v3/cmd/registry)
#   etcd                  under the live API server tests' kube-apiserver (test/tools: go.etcd.io/etcd/server/v3)
#   htpasswd              a bcrypt htpasswd line for the registry's Basic auth (test/tools, golang.org/x/crypto)
#   pre-commit            the hooks' tests (a Python virtual environment, pip install pre-commit==$PRE_COMMIT_VERSION)
#   build/apiserver-cel, build/kube-test-cluster   the Go test components (test/apiserver-cel, test/kube-apiserver)
# Each tool is built once per version into a per-user cache, ${XDG_CACHE_HOME:-~/.cache}/k8s-windows/tools/<tool>-
# <version> ($K8S_WINDOWS_TOOLS_CACHE overrides it), and .tools/bin links to it, so a clean checkout (CI) builds
# nothing it built before and a warm run costs well under a second. The versions below are the stamps: change one and
# the next run builds it. The Go builds run under nice; on a cold Go build cache they take minutes (CONTRIBUTING.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

HELM_VERSION=v3.22.0
KUSTOMIZE_VERSION=v5.8.1
# The newest v3 release of github.com/distribution/distribution (Debian's docker-registry is 2.8, the module before
# the v3 path).
REGISTRY_VERSION=v3.1.2
PRE_COMMIT_VERSION=4.7.0

bin="$root/.tools/bin"
cache="${K8S_WINDOWS_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/k8s-windows/tools}"
mkdir -p "$bin" "$cache" "$root/build"

need() {
  command -v "$1" >/dev/null || {
    echo "test-tools: $1 is not on PATH: the tests need $2 (CONTRIBUTING.md: Set up)." >&2
    exit 1
  }
}
need go 'Go 1.26 to build Helm, Kustomize, the registry, etcd and the test components'
need python3 'Python 3 with venv for pre-commit'

# sha256sum, or macOS's shasum.
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }

# A key for a Go source folder: the Go version and every go file, go.mod and go.sum in it (names and contents).
source_key() {
  local dir=$1
  {
    go env GOVERSION
    (cd "$dir" && find . -name '*.go' -o -name go.mod -o -name go.sum | LC_ALL=C sort |
      while read -r file; do sha256 "$file"; done)
  } | sha256 | cut -c1-16
}

# Another run building at the same time waits here, rather than building the same thing twice (flock is
# util-linux's: where it is missing, runs do not wait).
if command -v flock >/dev/null; then
  exec 9>"$cache/.lock"
  flock 9
fi

# built NAME VERSION BUILD...: runs `BUILD... $cache/NAME-VERSION` unless that folder holds a finished build
# (`.complete`, written last).
built() {
  local name=$1 version=$2
  shift 2
  local dir="$cache/$name-$version"
  if [[ ! -e $dir/.complete ]]; then
    local t=$SECONDS
    echo "test-tools: building $name $version into $dir" >&2
    rm -rf "$dir"
    mkdir -p "$dir"
    if ! "$@" "$dir"; then
      rm -rf "$dir"
      echo "test-tools: building $name $version failed" >&2
      exit 1
    fi
    touch "$dir/.complete"
    echo "test-tools: built $name $version ($((SECONDS - t)) s)" >&2
  fi
}

# provide NAME VERSION ENTRY BUILD...: .tools/bin/NAME links to ENTRY in NAME-VERSION's built folder.
provide() {
  local name=$1 version=$2 entry=$3
  shift 3
  built "$name" "$version" "$@"
  local dir="$cache/$name-$version"
  [[ $(readlink "$bin/$name" 2>/dev/null) == "$dir/$entry" ]] || ln -sfn "$dir/$entry" "$bin/$name"
}

go_install() { GOBIN="$2" nice go install "$1"; }
# The one build test/tools holds for each of its commands.
tools_build() { (cd test/tools && nice go build -trimpath -o "$2/$1" "./$1"); }
pre_commit_venv() {
  python3 -m venv "$1/venv" &&
    "$1/venv/bin/pip" install --quiet --disable-pip-version-check "pre-commit==$PRE_COMMIT_VERSION"
}

provide helm "$HELM_VERSION" helm go_install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
provide kustomize "$KUSTOMIZE_VERSION" kustomize go_install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION"
provide registry "$REGISTRY_VERSION" registry go_install \
  "github.com/distribution/distribution/v3/cmd/registry@$REGISTRY_VERSION"
tools_key=$(source_key test/tools)
provide etcd "$tools_key" etcd tools_build etcd
provide htpasswd "$tools_key" htpasswd tools_build htpasswd
provide pre-commit "$PRE_COMMIT_VERSION" venv/bin/pre-commit pre_commit_venv

# The Go test components go to build/ (test/helpers/apiserver-cel.ts and kube-apiserver.ts rebuild them when a
# source is newer than the binary, so they are copied, not linked: a copy is newer than a fresh checkout's sources).
# build/.NAME.key says which sources the copy was built from.
component() {
  local name=$1 key=$2
  shift 2
  [[ -x build/$name && $(cat "build/.$name.key" 2>/dev/null) == "$key" ]] && return
  built "$name" "$key" "$@"
  cp "$cache/$name-$key/$name" "build/$name.tmp"
  mv "build/$name.tmp" "build/$name"
  echo "$key" >"build/.$name.key"
}
# The admission-policy tests' judge (test/apiserver-cel: the API server's own CEL library, k8s.io/apiserver). On a
# cold Go build cache about four minutes of CPU.
apiserver_cel_build() { (cd test/apiserver-cel && nice go build -o "$1/apiserver-cel" ./); }
component apiserver-cel "$(source_key test/apiserver-cel)" apiserver_cel_build
# The live API server tests' control plane (test/kube-apiserver: kube-apiserver and kube-controller-manager of
# k8s.io/kubernetes in one binary), the version stamped as a release stamps it (kubeTestClusterBuildArgs in
# test/helpers/kube-apiserver.ts is the same build). A cold Go build cache: about 600 MB of modules, 3.5 GB of build
# cache and 18 minutes of CPU; warm, the link (about 30 s).
kube_test_cluster_build() {
  local version major minor
  version=$(awk '$1 == "k8s.io/kubernetes" { print $2 }' test/kube-apiserver/go.mod)
  IFS=. read -r major minor _ <<<"${version#v}"
  (cd test/kube-apiserver && nice go build -trimpath -ldflags "-X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=$major -X k8s.io/component-base/version.gitMinor=$minor" -o "$1/kube-test-cluster" ./)
}
component kube-test-cluster "$(source_key test/kube-apiserver)" kube_test_cluster_build
