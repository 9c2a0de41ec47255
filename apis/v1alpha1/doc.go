// Package v1alpha1 contains the rustfs.m.crossplane.io/v1alpha1 API: the
// provider's configuration kinds and the Tier, Bucket, BucketLifecycle and
// BucketAccess managed resources.
// +kubebuilder:object:generate=true
// +groupName=rustfs.m.crossplane.io
// +versionName=v1alpha1
package v1alpha1
