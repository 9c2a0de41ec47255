package v1alpha1

import (
	"reflect"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

// Package type metadata.
const (
	Group   = "rustfs.m.crossplane.io"
	Version = "v1alpha1"
)

var (
	// SchemeGroupVersion is the group version used to register these objects.
	SchemeGroupVersion = schema.GroupVersion{Group: Group, Version: Version}

	// SchemeBuilder is used to add go types to the GroupVersionKind scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: SchemeGroupVersion}

	// AddToScheme adds all registered types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// ProviderConfig type metadata.
var (
	ProviderConfigKind             = reflect.TypeFor[ProviderConfig]().Name()
	ProviderConfigGroupKind        = schema.GroupKind{Group: Group, Kind: ProviderConfigKind}.String()
	ProviderConfigGroupVersionKind = SchemeGroupVersion.WithKind(ProviderConfigKind)
)

// ClusterProviderConfig type metadata.
var (
	ClusterProviderConfigKind             = reflect.TypeFor[ClusterProviderConfig]().Name()
	ClusterProviderConfigGroupKind        = schema.GroupKind{Group: Group, Kind: ClusterProviderConfigKind}.String()
	ClusterProviderConfigGroupVersionKind = SchemeGroupVersion.WithKind(ClusterProviderConfigKind)
)

// ProviderConfigUsage type metadata.
var (
	ProviderConfigUsageKind                 = reflect.TypeFor[ProviderConfigUsage]().Name()
	ProviderConfigUsageGroupVersionKind     = SchemeGroupVersion.WithKind(ProviderConfigUsageKind)
	ProviderConfigUsageListKind             = reflect.TypeFor[ProviderConfigUsageList]().Name()
	ProviderConfigUsageListGroupVersionKind = SchemeGroupVersion.WithKind(ProviderConfigUsageListKind)
)

// Tier type metadata.
var (
	TierKind             = reflect.TypeFor[Tier]().Name()
	TierGroupKind        = schema.GroupKind{Group: Group, Kind: TierKind}.String()
	TierGroupVersionKind = SchemeGroupVersion.WithKind(TierKind)
)

// Bucket type metadata.
var (
	BucketKind             = reflect.TypeFor[Bucket]().Name()
	BucketGroupKind        = schema.GroupKind{Group: Group, Kind: BucketKind}.String()
	BucketGroupVersionKind = SchemeGroupVersion.WithKind(BucketKind)
)

// BucketLifecycle type metadata.
var (
	BucketLifecycleKind             = reflect.TypeFor[BucketLifecycle]().Name()
	BucketLifecycleGroupKind        = schema.GroupKind{Group: Group, Kind: BucketLifecycleKind}.String()
	BucketLifecycleGroupVersionKind = SchemeGroupVersion.WithKind(BucketLifecycleKind)
)

// BucketAccess type metadata.
var (
	BucketAccessKind             = reflect.TypeFor[BucketAccess]().Name()
	BucketAccessGroupKind        = schema.GroupKind{Group: Group, Kind: BucketAccessKind}.String()
	BucketAccessGroupVersionKind = SchemeGroupVersion.WithKind(BucketAccessKind)
)

func init() {
	SchemeBuilder.Register(&ProviderConfig{}, &ProviderConfigList{})
	SchemeBuilder.Register(&ClusterProviderConfig{}, &ClusterProviderConfigList{})
	SchemeBuilder.Register(&ProviderConfigUsage{}, &ProviderConfigUsageList{})
	SchemeBuilder.Register(&Tier{}, &TierList{})
	SchemeBuilder.Register(&Bucket{}, &BucketList{})
	SchemeBuilder.Register(&BucketLifecycle{}, &BucketLifecycleList{})
	SchemeBuilder.Register(&BucketAccess{}, &BucketAccessList{})
}
