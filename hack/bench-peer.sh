#!/usr/bin/env bash
# Side-by-side benchmark: builds a peer provider from its source checkout
# (for example vshn/provider-minio at v0.4.4, cloned outside this
# repository: its code is never vendored or committed here) into the
# tools cache, then runs bin/bench -peer, which measures provider-rustfs
# and the peer one after the other, each at its default flags, on the same
# work, and prints both in one table (docs/performance.md).
#
#   hack/bench-peer.sh PEER_SOURCE_DIR [bench flags, e.g. -n 1000 -existing 2000]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "${1:?usage: hack/bench-peer.sh PEER_SOURCE_DIR [bench flags]}" && pwd)
shift
cache=${PROVIDER_RUSTFS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/provider-rustfs}
version=$(git -C "$src" describe --tags --always 2>/dev/null || echo unknown)
peer=$cache/peer/$(basename "$src")-$version
if [ ! -x "$peer" ]; then
	echo "building $src at $version (cached in $peer)" >&2
	mkdir -p "$cache/peer"
	(cd "$src" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o "$peer.tmp" .)
	mv "$peer.tmp" "$peer"
fi
cd "$root"
make --no-print-directory build-bench
KUBEBUILDER_ASSETS=$(hack/tools.sh assets) bin/bench -peer "$peer" -peer-crds "$src/package/crds" "$@"
