//go:build generate

// Generate deepcopy methods and CRD manifests, then crossplane-runtime method
// sets and reference resolvers, then make the managed resources Retain-only
// by default (see hack/crdpatch).

//go:generate rm -rf ../package/provider/crds
//go:generate go tool controller-gen object:headerFile=../hack/boilerplate.go.txt paths=./... crd:crdVersions=v1 output:artifacts:config=../package/provider/crds
//go:generate go tool angryjet generate-methodsets --header-file=../hack/boilerplate.go.txt ./...
//go:generate go run ../hack/crdpatch ../package/provider/crds

// Package apis contains the provider's Kubernetes API types.
package apis
