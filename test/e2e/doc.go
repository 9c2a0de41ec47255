// Package e2e holds the provider's end-to-end tests: the real controllers,
// set up exactly as the provider binary sets them up, run against a real
// kube-apiserver and etcd (with the CRDs of package/provider/crds installed) and two
// RustFS emulators, a "local" RustFS the provider manages and a "remote"
// one that holds the tier bucket. The scenarios reproduce the RustFS
// operator's live check of Tenant tiers (docs/design.md §1).
//
// Run them with `make e2e`; `make unit` (go test -short) skips them.
package e2e
