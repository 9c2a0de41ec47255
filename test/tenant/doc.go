// Package tenant holds the end-to-end test of the Tenant composition: the
// real Crossplane render engine (the crossplane CLI with the core binary)
// runs the Tenant function built from cmd/function, `crossplane resource
// validate` checks what it renders against package/provider/crds and the Tenant
// XRDs, and the rendered managed resources are applied to a real
// kube-apiserver, where the provider's controllers drive two RustFS
// emulators until they are Ready. A second render, fed the live resources
// as observed state, must report the Tenant's status rows.
//
// Run it with `make e2e`, which sets KUBEBUILDER_ASSETS, CROSSPLANE_CLI and
// CROSSPLANE_CORE; `make unit` (go test -short) skips it.
package tenant
