package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A VersioningStatus is the versioning state of a bucket.
// +kubebuilder:validation:Enum=Enabled;Suspended
type VersioningStatus string

// Bucket versioning states.
const (
	VersioningEnabled   VersioningStatus = "Enabled"
	VersioningSuspended VersioningStatus = "Suspended"
)

// BucketParameters are the settings of a RustFS bucket. The bucket name is
// the crossplane.io/external-name annotation, which defaults to the
// resource's metadata.name.
// +kubebuilder:validation:XValidation:rule="(has(self.objectLock) && self.objectLock) == (has(oldSelf.objectLock) && oldSelf.objectLock)",message="objectLock is immutable: S3 enables object lock only when a bucket is created"
// +kubebuilder:validation:XValidation:rule="!(has(self.objectLock) && self.objectLock && has(self.versioning) && self.versioning == 'Suspended')",message="versioning cannot be Suspended when objectLock is true: object lock requires versioning"
type BucketParameters struct {
	// Region of the bucket. Defaults to the ProviderConfig's region.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Region string `json:"region,omitempty"`

	// ObjectLock enables S3 object lock. It can only be set when the bucket
	// is created.
	// +optional
	ObjectLock bool `json:"objectLock,omitempty"`

	// Versioning state of the bucket. Unset leaves it as it is.
	// +optional
	Versioning VersioningStatus `json:"versioning,omitempty"`

	// Quota is the bucket's hard limit in bytes, as a quantity (for example
	// 10Gi): RustFS refuses a write that would take the bucket's usage,
	// every object version counted, over it. Absent means no limit, and a
	// limit set in RustFS is removed.
	// +kubebuilder:validation:XValidation:rule="isQuantity(string(self)) && !quantity(string(self)).isLessThan(quantity('1')) && !quantity(string(self)).isGreaterThan(quantity('1Ei'))",message="quota must be a number of bytes from 1 to 1Ei, for example 10Gi; remove the field for no limit (RustFS reads a quota of 0 as no limit)"
	// +optional
	Quota *resource.Quantity `json:"quota,omitempty"`
}

// BucketObservation is the observed state of a bucket.
type BucketObservation struct {
	// Region of the bucket.
	Region string `json:"region,omitempty"`

	// ObjectLock is true when object lock is enabled.
	ObjectLock bool `json:"objectLock,omitempty"`

	// Versioning state of the bucket; empty when never enabled.
	Versioning VersioningStatus `json:"versioning,omitempty"`

	// Adopted is true when the bucket existed before this resource.
	Adopted bool `json:"adopted,omitempty"`

	// Quota is the bucket's hard limit in RustFS; absent when it has none.
	// +optional
	Quota *resource.Quantity `json:"quota,omitempty"`

	// Usage is the bytes the bucket holds, every object version counted,
	// as RustFS last computed them (its scanner lags writes); absent when
	// RustFS did not report it.
	// +optional
	Usage *resource.Quantity `json:"usage,omitempty"`
}

// A BucketSpec defines the desired state of a Bucket. By default
// (managementPolicies without Delete) deleting the Bucket leaves the RustFS
// bucket in place. With Delete (or '*') in managementPolicies, deleting the
// Bucket deletes the bucket only when it holds nothing: no object, no
// noncurrent version, no delete marker, no incomplete upload. A bucket that
// holds anything is never emptied: the Bucket reports what remains and
// keeps its finalizer.
type BucketSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`
	// The default {} is what the provider writes back in every update:
	// stored without it, a Bucket's first update by the provider would
	// change its generation, which reads as a change of its spec.

	// ForProvider are the settings of a RustFS bucket. The bucket name is
	// the crossplane.io/external-name annotation, which defaults to the
	// resource's metadata.name.
	// +kubebuilder:default={}
	ForProvider BucketParameters `json:"forProvider,omitempty"`
}

// A BucketStatus represents the observed state of a Bucket.
type BucketStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 BucketObservation `json:"atProvider,omitempty"`

	// Custody is the provider's record of this resource's claim to its
	// RustFS object; see docs/multi-tenancy.md.
	// +optional
	Custody *Custody `json:"custody,omitempty"`
}

// +kubebuilder:object:root=true

// A Bucket is a RustFS bucket.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="CONFLICT",type="string",JSONPath=".status.conditions[?(@.type=='BucketConflict')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,rustfs}
type Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BucketSpec   `json:"spec"`
	Status BucketStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// BucketList contains a list of Bucket.
type BucketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Bucket `json:"items"`
}
