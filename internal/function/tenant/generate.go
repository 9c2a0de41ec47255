//go:build generate

// Generate the Tenant (v2, Namespaced) and XTenant (v1, LegacyCluster) XRDs
// of the tenant Configuration package from the Go types of this package:
// go generate -tags generate ./internal/function/...

//go:generate go run ../../../hack/xrdgen -root . -out ../../../package/configuration

package tenant
