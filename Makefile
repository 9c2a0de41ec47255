# provider-rustfs developer targets. Test-only tools are built by
# hack/tools.sh into a cache outside the repository ($PROVIDER_RUSTFS_CACHE,
# default ~/.cache/provider-rustfs), keyed by version.

SHELL := /usr/bin/env bash -o pipefail
GO ?= go
TOOLS := hack/tools.sh
FUZZTIME ?= 5000x
# The version of the binaries and packages, computed once (a semantic version:
# hack/version.sh).
ifeq ($(origin VERSION),undefined)
VERSION := $(shell hack/version.sh)
endif
XPKGTOOL := hack/tools/xpkgtool
# Where make publish pushes the packages, and the source the Configuration's
# dependencies name; PLATFORMS are the os_arch runtimes make xpkg builds.
REGISTRY ?= xpkg.crossplane.io/crossplane-contrib
PLATFORMS ?= linux_amd64
XPKG_ENV = VERSION=$(VERSION) REGISTRY=$(REGISTRY) PLATFORMS="$(PLATFORMS)" CROSSPLANE_CLI=$$($(TOOLS) crossplane)
LDFLAGS := -s -w -X github.com/crossplane-contrib/provider-rustfs/internal/version.Version=$(VERSION)
# How every shipped binary is built (hack/xpkg.sh builds the images the same
# way). The grpcnotrace tag leaves out gRPC's golang.org/x/net/trace, whose
# /debug/requests pages no binary here serves (docs/performance.md, Binary).
BUILDFLAGS := -trimpath -tags grpcnotrace

export GONOSUMDB := github.com/crossplane/crossplane-tools

.DEFAULT_GOAL := help

##@ Development

help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"} /^[a-zA-Z_-]+:.*##/ {printf "  \033[36m%-12s\033[0m %s\n", $$1, $$2} /^##@/ {printf "\n%s\n", substr($$0, 5)}' $(MAKEFILE_LIST)

generate: ## Generate deepcopy, method sets, reference resolvers, CRDs, the Tenant XRDs and the Dockerfiles of cluster/images.
	$(GO) generate -tags generate ./apis/... ./internal/function/...
	cd $(XPKGTOOL) && $(GO) run . dockerfiles -root $(CURDIR)

check-diff: generate ## Fail if generated files are not committed.
	@changed=$$(git status --porcelain -- apis package cluster); \
	if [ -n "$$changed" ]; then echo "generated files differ from the commit:"; echo "$$changed"; git --no-pager diff --stat -- apis package cluster; exit 1; fi

lint: ## gofmt, go vet, staticcheck, the house-style limits (hack/stylecheck), and every citation resolving inside the repository (hack/citecheck).
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "not gofmt-formatted:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$$($(TOOLS) staticcheck) ./...
	cd $(XPKGTOOL) && $(GO) vet ./... && $$(../../../$(TOOLS) staticcheck) ./...
	$(GO) run ./hack/stylecheck
	$(GO) run ./hack/citecheck

unit: ## Fast unit tests (no API server).
	$(GO) test -short -count=1 ./...
	cd $(XPKGTOOL) && $(GO) test -short -count=1 ./...

reviewable: generate check-diff lint unit ## Everything to run before a commit.

test: ## Everything CI runs: unit, integration (real kube-apiserver + etcd), end-to-end, the demo (make demo-test), fuzz smoke, bench smoke, a mutation sample.
	KUBEBUILDER_ASSETS=$$($(TOOLS) assets) $(GO) test -count=1 -race $$($(GO) list ./... | grep -v /test/)
	cd $(XPKGTOOL) && $(GO) test -count=1 ./...
	$(MAKE) e2e
	$(MAKE) demo-test
	$(MAKE) fuzz
	$(MAKE) bench-smoke
	$(MAKE) mutate

MUTATE_SAMPLE ?= 6
mutate: ## A seeded sample of hack/mutate-translate.sh's mutations (MUTATE_SAMPLE, default 6, about 3.5 minutes; MUTATE_SEED repeats a run), on a copy of the tree: every one must be caught. All 36 take 18 to 33 minutes on 2 shared cores, too long for every run.
	@tmp=$$(mktemp -d); tar -c --exclude=./.git --exclude=./_output . | tar -x -C $$tmp; \
	MUTATE_SAMPLE=$(MUTATE_SAMPLE) MUTATE_SEED=$(MUTATE_SEED) $$tmp/hack/mutate-translate.sh; rc=$$?; rm -rf $$tmp; exit $$rc

e2e: xpkg ## End-to-end scenarios: the controllers against kube-apiserver + etcd and RustFS emulators; the Tenant rendered by the real Crossplane engine; the packages checked and installed by Crossplane core.
	KUBEBUILDER_ASSETS=$$($(TOOLS) assets) CROSSPLANE_CLI=$$($(TOOLS) crossplane) CROSSPLANE_CORE=$$($(TOOLS) crossplane-core) \
	  XPKG_DIR=$(CURDIR)/_output/xpkg XPKG_TOOL=$(CURDIR)/_output/bin/xpkgtool XPKG_VERSION=$(VERSION) XPKG_REGISTRY=$(REGISTRY) \
	  $(GO) test -count=1 -race -timeout 30m $(E2EFLAGS) ./test/e2e/... ./test/tenant/... ./test/packages/...

fuzz: ## Run each fuzz target for FUZZTIME inputs (default 5000x: a count, not a duration, as a timed run can end with "context deadline exceeded" when its clock runs out mid-input).
	@set -e; grep -rl --include='*_test.go' '^func Fuzz' apis cmd internal | xargs -n1 dirname | sort -u | while read -r dir; do \
	  for f in $$(grep -h '^func Fuzz' $$dir/*_test.go | sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/'); do \
	    echo "fuzz ./$$dir $$f"; $(GO) test -short -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) ./$$dir; \
	  done; done

##@ Performance

N ?= 1000

bench: build-bench ## Scale benchmark (docs/performance.md): N Tiers, Buckets and BucketLifecycles (default N=1000), both tier list modes; BENCHFLAGS passes flags.
	$(if $(findstring -floor,$(BENCHFLAGS)),CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o bin/floor ./hack/bench/floor)
	KUBEBUILDER_ASSETS=$$($(TOOLS) assets) bin/bench -n $(N) $(BENCHFLAGS)

bench-peer: ## Side by side with another provider built from its checkout in PEER (e.g. vshn/provider-minio v0.4.4): N new Buckets each, default flags; BENCHFLAGS passes flags.
	hack/bench-peer.sh $(PEER) -n $(N) $(BENCHFLAGS)

build-bench: ## Build bin/provider and bin/bench.
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o bin/provider ./cmd/provider
	$(GO) build -o bin/bench ./hack/bench

bench-smoke: ## The benchmark with N=20 and a 10s poll; fails on steady-state writes to RustFS, status updates beyond one per tier verify or tier stats, or more tier lists, verifies or tier stats than the bounds allow (counts, never times).
	$(MAKE) bench N=20 BENCHFLAGS="-poll=10s -smoke $(BENCHFLAGS)"

##@ Build and run

build: ## Build the provider and the RustFS emulator into bin/.
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o bin/provider ./cmd/provider
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o bin/rustfs-emulator ./cmd/rustfs-emulator
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o bin/function ./cmd/function

xpkg: ## Build the provider, function and configuration packages into _output/xpkg, without Docker (PLATFORMS, REGISTRY).
	$(XPKG_ENV) hack/xpkg.sh build

publish: PLATFORMS = linux_amd64 linux_arm64
publish: xpkg ## Build for amd64 and arm64 and push the packages to REGISTRY (not run by CI), e.g. make publish REGISTRY=ghcr.io/acme.
	$(XPKG_ENV) hack/xpkg.sh publish

# The demo's Crossplane core: the cached binary, or empty if it cannot be
# built here, and then the demo skips the Tenant and says why.
DEMO_CORE = CROSSPLANE_CORE=$$($(TOOLS) crossplane-core || echo /nonexistent/crossplane-core)

demo: demo-build ## Start kube-apiserver, etcd, RustFS emulators (or RUSTFS_ENDPOINT), the provider, Crossplane core and the Tenant function; apply the examples and the Tenant; Ctrl-C stops all.
	KUBEBUILDER_ASSETS=$$($(TOOLS) assets) $(DEMO_CORE) bin/demo $(DEMOFLAGS)

demo-build: ## Build what make demo runs: bin/provider, bin/rustfs-emulator, bin/function, bin/demo, and (cached, hack/tools.sh) Crossplane core; a core that fails to build only skips the Tenant.
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o bin/provider ./cmd/provider
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o bin/rustfs-emulator ./cmd/rustfs-emulator
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -ldflags '$(LDFLAGS)' -o bin/function ./cmd/function
	$(GO) build -o bin/demo ./hack/demo
	@$(TOOLS) crossplane-core >/dev/null || echo "demo-build: Crossplane core did not build; make demo will skip the Tenant"

demo-test: demo-build ## Run bin/demo -once as make demo DEMOFLAGS=-once does (test/demo): all Ready, the key proof passed, the Tenant Ready, nothing left behind; and a failing run keeps its logs.
	KUBEBUILDER_ASSETS=$$($(TOOLS) assets) $(DEMO_CORE) $(GO) test -count=1 -timeout 15m ./test/demo/...

run: ## Run the provider against the current kubeconfig.
	$(GO) run -tags grpcnotrace ./cmd/provider --debug --no-leader-election

tools: ## Build (or reuse) every cached test tool.
	$(TOOLS) all

.PHONY: help generate check-diff lint unit reviewable test e2e fuzz mutate bench bench-peer build-bench bench-smoke build xpkg publish demo demo-build demo-test run tools
