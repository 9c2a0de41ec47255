#!/usr/bin/env bash
# Builds and publishes the three Crossplane packages of this repository
# without a Docker daemon (docs/install.md, "Build and publish the packages").
#
#   hack/xpkg.sh build     make xpkg: the provider and function packages, each
#                          with its runtime image embedded, and the
#                          Configuration package that depends on both by the
#                          version just built, as .xpkg files in $OUT/xpkg, and
#                          the manifests that install them in $OUT/install
#   hack/xpkg.sh publish   make publish: push the built packages to $REGISTRY
#                          with `crossplane xpkg push` (one image index per
#                          package when several platforms were built)
#
# Settings (environment): VERSION (hack/version.sh), REGISTRY (the registry
# and organisation the packages are published under; the Configuration's
# dependencies name it), PLATFORMS (os_arch list, default linux_amd64),
# SOURCE_DATE_EPOCH (every image timestamp; default the commit time), CA_CERTS
# (the CA bundle put in the images; default Debian's ca-certificates), OUT
# (default _output), CROSSPLANE_CLI (default the cached CLI of hack/tools.sh).
#
# Runtime images are assembled in Go by hack/tools/xpkgtool from the static
# binary (CGO_ENABLED=0, -trimpath, -tags grpcnotrace as the Makefile's
# BUILDFLAGS, fixed ldflags), the CA bundle, a nonroot user (65532) and the
# entrypoint, with fixed timestamps, owners and modes and sorted entries: the
# same inputs give the same digests. What each image holds (command, ports,
# labels) is set in hack/tools/xpkgtool/runtimes.go, which the Dockerfiles in
# cluster/images are generated from too.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${VERSION:=$(hack/version.sh)}"
: "${REGISTRY:=xpkg.crossplane.io/crossplane-contrib}"
: "${PLATFORMS:=linux_amd64}"
: "${OUT:=_output}"
: "${SOURCE_DATE_EPOCH:=$(git log -1 --format=%ct 2>/dev/null || echo 0)}"
: "${CA_CERTS:=/etc/ssl/certs/ca-certificates.crt}"
: "${CROSSPLANE_CLI:=$(hack/tools.sh crossplane)}"

out=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
tool=$out/bin/xpkgtool

# image <package> <os_arch>: build the static binary and the runtime image
# tarball of a package for one platform; print the tarball's path.
image() {
	local pkg=$1 platform=$2
	local bin=$out/bin/$platform/$pkg tar=$out/images/$pkg-$VERSION-$platform.tar
	local target=(--runtime "$pkg" --version "$VERSION" --os "${platform%_*}" --arch "${platform#*_}")
	"$tool" binary "${target[@]}" -o "$bin"
	echo "image $pkg $platform: $("$tool" image "${target[@]}" --binary "$bin" --epoch "$SOURCE_DATE_EPOCH" \
		--ca-certs "$CA_CERTS" --tag "$pkg:$VERSION" -o "$tar")" >&2
	echo "$tar"
}

# stage <dir> <package root> [examples dir]...: a package root to build
# from, and its examples (none: no examples layer).
stage() {
	local dir=$out/stage/$1 root=$2
	shift 2
	mkdir -p "$dir"
	cp -R "$root/." "$dir/package"
	for e in "$@"; do mkdir -p "$dir/examples" && cp -R "$e" "$dir/examples/"; done
	echo "$dir"
}

# xpkg <stage dir> <output> [runtime image]: crossplane xpkg build.
xpkg() {
	local args=(--package-root "$1/package" --examples-root "$1/examples" -o "$2")
	[ -z "${3:-}" ] || args+=(--embed-runtime-image-tarball "$3")
	"$CROSSPLANE_CLI" xpkg build "${args[@]}"
	echo "package $(basename "$2")" >&2
}

build() {
	[ -f "$CA_CERTS" ] || { echo "no CA bundle at $CA_CERTS: apt-get install ca-certificates" >&2; exit 1; }
	rm -rf "$out/images" "$out/stage" "$out/xpkg" "$out/install"
	mkdir -p "$out/images" "$out/xpkg"
	(cd hack/tools/xpkgtool && go build -trimpath -o "$tool" .)
	local p=provider-rustfs f=function-rustfs-tenant c=configuration-rustfs-tenant
	local pdir fdir cdir
	pdir=$(stage "$p" package/provider examples/providerconfig examples/tier examples/bucket examples/bucketlifecycle)
	fdir=$(stage "$f" package/function)
	cdir=$(stage "$c" package/configuration examples/tenant)
	rm "$cdir/examples/tenant/functions.yaml" # render-only: a Function for crossplane composition render
	"$tool" configure --dir "$cdir/package" --registry "$REGISTRY" --version "$VERSION"
	for platform in $PLATFORMS; do
		xpkg "$pdir" "$out/xpkg/$p-$VERSION-$platform.xpkg" "$(image "$p" "$platform")"
		xpkg "$fdir" "$out/xpkg/$f-$VERSION-$platform.xpkg" "$(image "$f" "$platform")"
	done
	xpkg "$cdir" "$out/xpkg/$c-$VERSION.xpkg"
	cp -R examples/install "$out/install"
	"$tool" configure --dir "$out/install" --registry "$REGISTRY" --version "$VERSION"
	echo "install manifests for $REGISTRY, $VERSION: $out/install (docs/install.md)" >&2
}

# push <package>: push every built file of one package under one tag.
push() {
	local files=("$out/xpkg/$1-$VERSION"*.xpkg)
	[ -f "${files[0]}" ] || { echo "no $1 package for $VERSION in $out/xpkg: run make xpkg" >&2; exit 1; }
	"$CROSSPLANE_CLI" xpkg push -f "$(IFS=,; echo "${files[*]}")" "$REGISTRY/$1:$VERSION"
	echo "pushed $REGISTRY/$1:$VERSION" >&2
}

case ${1:-} in
build) build ;;
publish) push provider-rustfs && push function-rustfs-tenant && push configuration-rustfs-tenant ;;
*) echo "usage: $0 build|publish" >&2; exit 2 ;;
esac
