// Package tenant is the Tenant composition function: it renders a Tenant
// (storage.rustfs.crossplane.io) into one Tier per spec.tiers entry, one
// Bucket per spec.buckets entry, for buckets with a lifecycle one
// BucketLifecycle, and one BucketAccess per spec.access entry, all with
// deterministic names keyed by entry name, and writes per-tier, per-bucket
// and per-access status rows back onto the Tenant.
//
// The Go types in input*.go are also the source of the Tenant and XTenant
// XRD schemas in package/configuration (see generate.go).
// +groupName=storage.rustfs.crossplane.io
// +versionName=v1alpha1
package tenant
