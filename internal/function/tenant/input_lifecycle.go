package tenant

import (
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A LifecycleState says whether a bucket's lifecycle configuration is
// managed (Present) or removed (Absent).
// +kubebuilder:validation:Enum=Present;Absent
type LifecycleState string

// Lifecycle states.
const (
	LifecyclePresent LifecycleState = "Present"
	LifecycleAbsent  LifecycleState = "Absent"
)

// A TenantLifecycle is the lifecycle configuration of a Tenant's bucket.
// +kubebuilder:validation:XValidation:rule="!has(self.state) || self.state != 'Absent' || !has(self.rules) || size(self.rules) == 0",message="rules must be empty when state is Absent: Absent removes the bucket's lifecycle configuration"
// +kubebuilder:validation:XValidation:rule="(has(self.state) && self.state == 'Absent') || (has(self.rules) && size(self.rules) > 0)",message="state Present needs at least one rule; use state Absent to remove the bucket's lifecycle configuration"
type TenantLifecycle struct {
	// State Present applies the rules; Absent removes the bucket's
	// lifecycle configuration.
	// +kubebuilder:default=Present
	// +optional
	State LifecycleState `json:"state,omitempty"`

	// Rules of the lifecycle configuration. A bucket that needs more rules
	// than a Tenant allows can use a BucketLifecycle directly.
	// +listType=map
	// +listMapKey=id
	// +kubebuilder:validation:MaxItems=50
	// +optional
	Rules []TenantRule `json:"rules,omitempty"`
}

// A TenantRule is one lifecycle rule. It has the fields of the provider's
// BucketLifecycle rule, plus the RustFS operator's singular transition and
// noncurrentVersionTransition.
// +kubebuilder:validation:XValidation:rule="has(self.transition) || (has(self.transitions) && size(self.transitions) > 0) || has(self.noncurrentVersionTransition) || (has(self.noncurrentVersionTransitions) && size(self.noncurrentVersionTransitions) > 0) || has(self.expiration) || has(self.noncurrentVersionExpiration) || has(self.abortIncompleteMultipartUpload) || has(self.delMarkerExpiration)",message="a rule needs at least one action (transition, transitions, noncurrentVersionTransition, noncurrentVersionTransitions, expiration, noncurrentVersionExpiration, abortIncompleteMultipartUpload or delMarkerExpiration): RustFS rejects rules without one"
// +kubebuilder:validation:XValidation:rule="!(has(self.transition) && has(self.transitions) && size(self.transitions) > 0)",message="set transition or transitions, not both"
// +kubebuilder:validation:XValidation:rule="!(has(self.noncurrentVersionTransition) && has(self.noncurrentVersionTransitions) && size(self.noncurrentVersionTransitions) > 0)",message="set noncurrentVersionTransition or noncurrentVersionTransitions, not both"
// +kubebuilder:validation:XValidation:rule="!(has(self.filter) && (has(self.filter.tag) || (has(self.filter.and) && has(self.filter.and.tags) && size(self.filter.and.tags) > 0))) || (!has(self.delMarkerExpiration) && !(has(self.expiration) && has(self.expiration.expiredObjectDeleteMarker) && self.expiration.expiredObjectDeleteMarker))",message="delMarkerExpiration and expiration.expiredObjectDeleteMarker cannot be used with a tag filter: delete markers have no tags, and RustFS rejects the rule"
type TenantRule struct {
	// ID uniquely identifies the rule within the bucket.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="size(bytes(self)) <= 255",message="id must be at most 255 bytes: RustFS rejects longer rule IDs"
	ID string `json:"id"`

	// Status enables or disables the rule.
	// +kubebuilder:default=Enabled
	// +optional
	Status v1alpha1.RuleStatus `json:"status,omitempty"`

	// Filter selects the objects the rule applies to; absent means the
	// whole bucket.
	// +optional
	Filter *v1alpha1.LifecycleFilter `json:"filter,omitempty"`

	// Transition moves current versions to a tier (the RustFS operator's
	// shape); it is the same as a one-element transitions.
	// +optional
	Transition *TenantTransition `json:"transition,omitempty"`

	// Transitions move current versions to tiers.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Transitions []TenantTransition `json:"transitions,omitempty"`

	// NoncurrentVersionTransition moves noncurrent versions to a tier; it
	// is the same as a one-element noncurrentVersionTransitions.
	// +optional
	NoncurrentVersionTransition *TenantNoncurrentVersionTransition `json:"noncurrentVersionTransition,omitempty"`

	// NoncurrentVersionTransitions move noncurrent versions to tiers.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=8
	// +optional
	NoncurrentVersionTransitions []TenantNoncurrentVersionTransition `json:"noncurrentVersionTransitions,omitempty"`

	// Expiration expires current versions.
	// +optional
	Expiration *v1alpha1.LifecycleExpiration `json:"expiration,omitempty"`

	// NoncurrentVersionExpiration expires noncurrent versions.
	// +optional
	NoncurrentVersionExpiration *v1alpha1.NoncurrentVersionExpiration `json:"noncurrentVersionExpiration,omitempty"`

	// AbortIncompleteMultipartUpload aborts stale multipart uploads.
	// +optional
	AbortIncompleteMultipartUpload *v1alpha1.AbortIncompleteMultipartUpload `json:"abortIncompleteMultipartUpload,omitempty"`

	// DelMarkerExpiration removes delete markers.
	// +optional
	DelMarkerExpiration *v1alpha1.DelMarkerExpiration `json:"delMarkerExpiration,omitempty"`
}

// A TenantTransition moves current object versions to a tier. A storage
// class that names a tier of the same Tenant becomes a reference to that
// tier's Tier; any other names a tier managed elsewhere.
// +kubebuilder:validation:XValidation:rule="has(self.days) != has(self.date)",message="set exactly one of days or date: RustFS requires exactly one of Days (0 or greater) or Date in a transition"
type TenantTransition struct {
	// Days after creation when objects transition; 0 transitions them on
	// the next lifecycle scan.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Days *int32 `json:"days,omitempty"`

	// Date when objects transition, at midnight UTC: YYYY-MM-DD or
	// YYYY-MM-DDT00:00:00Z.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:XValidation:rule="self.matches('^[0-9]{4}-[0-9]{2}-[0-9]{2}(T00:00:00([.]0+)?Z)?$')",message="date must be midnight UTC, as YYYY-MM-DD or YYYY-MM-DDT00:00:00Z: RustFS rejects other times"
	// +optional
	Date string `json:"date,omitempty"`

	// StorageClass is the name of the RustFS tier objects move to.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Z0-9_.-]+$') && self != '.' && self != '..' && !(self.upperAscii() in ['STANDARD', 'REDUCED_REDUNDANCY'])",message="storageClass must be a tier name: A-Z, 0-9, '_', '-' and '.', not '.' or '..', and not STANDARD or REDUCED_REDUNDANCY"
	StorageClass string `json:"storageClass"`
}

// A TenantNoncurrentVersionTransition moves noncurrent object versions to a
// tier; its storage class is resolved as for a TenantTransition.
type TenantNoncurrentVersionTransition struct {
	// NoncurrentDays after a version becomes noncurrent when it transitions.
	// +kubebuilder:validation:Minimum=0
	NoncurrentDays int32 `json:"noncurrentDays"`

	// NewerNoncurrentVersions to keep before transitioning older ones.
	// +kubebuilder:validation:Minimum=0
	// +optional
	NewerNoncurrentVersions *int32 `json:"newerNoncurrentVersions,omitempty"`

	// StorageClass is the name of the RustFS tier versions move to.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Z0-9_.-]+$') && self != '.' && self != '..' && !(self.upperAscii() in ['STANDARD', 'REDUCED_REDUNDANCY'])",message="storageClass must be a tier name: A-Z, 0-9, '_', '-' and '.', not '.' or '..', and not STANDARD or REDUCED_REDUNDANCY"
	StorageClass string `json:"storageClass"`
}
