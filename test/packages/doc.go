// Package packages tests the Crossplane packages that `make xpkg` builds
// (_output/xpkg): that the Crossplane CLI reads each one and that each
// holds what it should (metadata, CRDs or XRDs and Compositions, a runtime
// image with the right entrypoint, user and platform whose binary starts),
// that a second build from the same inputs gives the same digests, and
// that the real Crossplane package manager (core v2.3.4, run out of
// cluster against kube-apiserver + etcd) installs them from an in-process
// OCI registry, after which the provider binary from the provider's image,
// running as the ServiceAccount Crossplane made for it, and Crossplane's
// own composition engine bring the example Tenant to Ready.
//
// Run it with `make e2e`, which builds the packages and sets XPKG_DIR,
// XPKG_TOOL, XPKG_VERSION, XPKG_REGISTRY, CROSSPLANE_CLI, CROSSPLANE_CORE
// and KUBEBUILDER_ASSETS; `make unit` (go test -short) skips it.
package packages
