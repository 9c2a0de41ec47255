#!/usr/bin/env bash
# Builds the test-only tools (kube-apiserver, staticcheck, the Crossplane CLI
# and core binary) from their own modules under hack/tools/<tool>/ into a cache
# outside the repository, keyed by version, and prints the cached path.
# A tool already in the cache is reused.
#
#   hack/tools.sh <tool>      build (if needed) and print its path
#   hack/tools.sh assets      build kube-apiserver and link etcd; print the
#                             envtest KUBEBUILDER_ASSETS directory
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${PROVIDER_RUSTFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/provider-rustfs}
export GONOSUMDB=${GONOSUMDB:-github.com/crossplane/crossplane-tools}
export GOFLAGS=-mod=mod

k8s=1.35.4

# build <tool> <version> <package> [ldflags]: go build <package> in hack/tools/<tool>.
build() {
	local tool=$1 version=$2 pkg=$3 ld=${4:-}
	local out=$cache/bin/$tool-$version
	if [ ! -x "$out" ]; then
		mkdir -p "$cache/bin"
		echo "building $tool $version (cached in $out)" >&2
		(cd "$root/hack/tools/$tool" && go build -trimpath -ldflags "-s -w $ld" -o "$out.tmp" "$pkg")
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

kube_apiserver() {
	local v=k8s.io/component-base/version
	build kube-apiserver "v$k8s" k8s.io/kubernetes/cmd/kube-apiserver \
		"-X $v.gitVersion=v$k8s -X $v.gitMajor=1 -X $v.gitMinor=35 -X $v.gitTreeState=clean"
}

etcd_path() {
	type -P etcd || { echo "etcd not found: apt-get install etcd-server" >&2; exit 1; }
}

assets() {
	local dir=$cache/assets/v$k8s
	mkdir -p "$dir"
	ln -sf "$(kube_apiserver)" "$dir/kube-apiserver"
	ln -sf "$(etcd_path)" "$dir/etcd"
	echo "$dir"
}

staticcheck() { build staticcheck v0.8.2 honnef.co/go/tools/cmd/staticcheck; }
crossplane() { build crossplane v2.5.0 github.com/crossplane/cli/v2/cmd/crossplane; }
# Core reports the version its package manager checks packages'
# spec.crossplane.version against; without it every package with a
# constraint is Unhealthy. The key names the stamp, so that a core binary
# cached before it was stamped is not reused.
crossplane_core() {
	build crossplane-core v2.3.4-stamped github.com/crossplane/crossplane/v2/cmd/crossplane \
		"-X github.com/crossplane/crossplane-runtime/v2/pkg/version.version=v2.3.4"
}

case ${1:-} in
kube-apiserver) kube_apiserver ;;
etcd) etcd_path ;;
assets) assets ;;
staticcheck) staticcheck ;;
crossplane) crossplane ;;
crossplane-core) crossplane_core ;;
all) assets && staticcheck && crossplane && crossplane_core ;;
*) echo "usage: $0 kube-apiserver|etcd|assets|staticcheck|crossplane|crossplane-core|all" >&2; exit 2 ;;
esac
