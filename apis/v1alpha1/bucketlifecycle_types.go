package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A RuleStatus enables or disables a lifecycle rule.
// +kubebuilder:validation:Enum=Enabled;Disabled
type RuleStatus string

// Lifecycle rule states.
const (
	RuleEnabled  RuleStatus = "Enabled"
	RuleDisabled RuleStatus = "Disabled"
)

// A LifecycleTag is an object tag a rule filters on.
type LifecycleTag struct {
	// Key of the tag.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	Key string `json:"key"`

	// Value of the tag.
	// +kubebuilder:validation:MaxLength=256
	// +optional
	Value string `json:"value,omitempty"`
}

// A LifecycleFilterAnd combines filter conditions; an object must match all.
// +kubebuilder:validation:XValidation:rule="!(has(self.objectSizeGreaterThan) && has(self.objectSizeLessThan)) || self.objectSizeLessThan > self.objectSizeGreaterThan",message="objectSizeLessThan must be greater than objectSizeGreaterThan, otherwise no object matches"
type LifecycleFilterAnd struct {
	// Prefix of the object keys.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Prefix string `json:"prefix,omitempty"`

	// Tags the object must carry.
	// +listType=map
	// +listMapKey=key
	// +kubebuilder:validation:MaxItems=50
	// +optional
	Tags []LifecycleTag `json:"tags,omitempty"`

	// ObjectSizeGreaterThan matches objects larger than this many bytes.
	// +kubebuilder:validation:Minimum=0
	// +optional
	ObjectSizeGreaterThan *int64 `json:"objectSizeGreaterThan,omitempty"`

	// ObjectSizeLessThan matches objects smaller than this many bytes.
	// +kubebuilder:validation:Minimum=1
	// +optional
	ObjectSizeLessThan *int64 `json:"objectSizeLessThan,omitempty"`
}

// A LifecycleFilter selects the objects a rule applies to. An empty or
// absent filter selects the whole bucket.
// +kubebuilder:validation:XValidation:rule="[has(self.prefix) && size(self.prefix) > 0, has(self.tag), has(self.and), has(self.objectSizeGreaterThan), has(self.objectSizeLessThan)].filter(x, x).size() <= 1",message="filter takes only one of prefix, tag, objectSizeGreaterThan, objectSizeLessThan or and; use and to combine conditions"
type LifecycleFilter struct {
	// Prefix of the object keys.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Prefix string `json:"prefix,omitempty"`

	// Tag the object must carry.
	// +optional
	Tag *LifecycleTag `json:"tag,omitempty"`

	// And combines a prefix, tags and size bounds.
	// +optional
	And *LifecycleFilterAnd `json:"and,omitempty"`

	// ObjectSizeGreaterThan matches objects larger than this many bytes.
	// +kubebuilder:validation:Minimum=0
	// +optional
	ObjectSizeGreaterThan *int64 `json:"objectSizeGreaterThan,omitempty"`

	// ObjectSizeLessThan matches objects smaller than this many bytes.
	// +kubebuilder:validation:Minimum=1
	// +optional
	ObjectSizeLessThan *int64 `json:"objectSizeLessThan,omitempty"`
}

// A Transition moves current object versions to a tier.
// +kubebuilder:validation:XValidation:rule="has(self.days) != has(self.date)",message="set exactly one of days or date: RustFS requires exactly one of Days (0 or greater) or Date in a transition"
// +kubebuilder:validation:XValidation:rule="(has(self.storageClass) && size(self.storageClass) > 0) || has(self.tierRef) || has(self.tierSelector)",message="set storageClass, tierRef or tierSelector: a transition needs the name of a registered tier"
// +kubebuilder:validation:XValidation:rule="!has(self.tierRef) || ((!has(self.tierRef.__namespace__) || size(self.tierRef.__namespace__) == 0) && (!has(self.tierRef.policy) || !has(self.tierRef.policy.resolution) || self.tierRef.policy.resolution == 'Required'))",message="tierRef must name a Tier in the same namespace and must not set policy.resolution Optional: the rule needs the tier's name"
// +kubebuilder:validation:XValidation:rule="!has(self.tierSelector) || ((!has(self.tierSelector.__namespace__) || size(self.tierSelector.__namespace__) == 0) && (!has(self.tierSelector.policy) || !has(self.tierSelector.policy.resolution) || self.tierSelector.policy.resolution == 'Required'))",message="tierSelector must select Tiers in the same namespace and must not set policy.resolution Optional: the rule needs the tier's name"
type Transition struct {
	// Days after creation when objects transition; 0 transitions them on
	// the next lifecycle scan.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Days *int32 `json:"days,omitempty"`

	// Date when objects transition, at midnight UTC: YYYY-MM-DD or
	// YYYY-MM-DDT00:00:00Z.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:XValidation:rule="self.matches('^[0-9]{4}-[0-9]{2}-[0-9]{2}(T00:00:00([.]0+)?Z)?$')",message="date must be midnight UTC, as YYYY-MM-DD or YYYY-MM-DDT00:00:00Z: RustFS rejects other times"
	// +kubebuilder:validation:XValidation:rule="!self.matches('^[0-9]{4}-[0-9]{2}-[0-9]{2}') || (int(self.substring(5, 7)) >= 1 && int(self.substring(5, 7)) <= 12 && int(self.substring(8, 10)) >= 1 && int(self.substring(8, 10)) <= [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][int(self.substring(5, 7)) - 1] + (int(self.substring(5, 7)) == 2 && int(self.substring(0, 4)) % 4 == 0 && (int(self.substring(0, 4)) % 100 != 0 || int(self.substring(0, 4)) % 400 == 0) ? 1 : 0))",message="date must be a calendar date: the month has no such day (February 29 only in leap years); use a day that exists, as YYYY-MM-DD"
	// +optional
	Date string `json:"date,omitempty"`

	// StorageClass is the name of the RustFS tier objects move to.
	// +crossplane:generate:reference:type=Tier
	// +crossplane:generate:reference:extractor=TierNameIfReady()
	// +crossplane:generate:reference:refFieldName=TierRef
	// +crossplane:generate:reference:selectorFieldName=TierSelector
	// +kubebuilder:validation:MaxLength=64
	// +optional
	StorageClass string `json:"storageClass,omitempty"`

	// TierRef references a Tier whose name becomes the storage class once
	// the Tier is Ready.
	// +optional
	TierRef *xpv2.NamespacedReference `json:"tierRef,omitempty"`

	// TierSelector selects a Tier whose name becomes the storage class once
	// the Tier is Ready.
	// +optional
	TierSelector *xpv2.NamespacedSelector `json:"tierSelector,omitempty"`
}

// A NoncurrentVersionTransition moves noncurrent object versions to a tier.
// +kubebuilder:validation:XValidation:rule="(has(self.storageClass) && size(self.storageClass) > 0) || has(self.tierRef) || has(self.tierSelector)",message="set storageClass, tierRef or tierSelector: a transition needs the name of a registered tier"
// +kubebuilder:validation:XValidation:rule="!has(self.tierRef) || ((!has(self.tierRef.__namespace__) || size(self.tierRef.__namespace__) == 0) && (!has(self.tierRef.policy) || !has(self.tierRef.policy.resolution) || self.tierRef.policy.resolution == 'Required'))",message="tierRef must name a Tier in the same namespace and must not set policy.resolution Optional: the rule needs the tier's name"
// +kubebuilder:validation:XValidation:rule="!has(self.tierSelector) || ((!has(self.tierSelector.__namespace__) || size(self.tierSelector.__namespace__) == 0) && (!has(self.tierSelector.policy) || !has(self.tierSelector.policy.resolution) || self.tierSelector.policy.resolution == 'Required'))",message="tierSelector must select Tiers in the same namespace and must not set policy.resolution Optional: the rule needs the tier's name"
type NoncurrentVersionTransition struct {
	// NoncurrentDays after a version becomes noncurrent when it transitions.
	// +kubebuilder:validation:Minimum=0
	NoncurrentDays int32 `json:"noncurrentDays"`

	// NewerNoncurrentVersions to keep before transitioning older ones.
	// +kubebuilder:validation:Minimum=0
	// +optional
	NewerNoncurrentVersions *int32 `json:"newerNoncurrentVersions,omitempty"`

	// StorageClass is the name of the RustFS tier versions move to.
	// +crossplane:generate:reference:type=Tier
	// +crossplane:generate:reference:extractor=TierNameIfReady()
	// +crossplane:generate:reference:refFieldName=TierRef
	// +crossplane:generate:reference:selectorFieldName=TierSelector
	// +kubebuilder:validation:MaxLength=64
	// +optional
	StorageClass string `json:"storageClass,omitempty"`

	// TierRef references a Tier whose name becomes the storage class once
	// the Tier is Ready.
	// +optional
	TierRef *xpv2.NamespacedReference `json:"tierRef,omitempty"`

	// TierSelector selects a Tier whose name becomes the storage class once
	// the Tier is Ready.
	// +optional
	TierSelector *xpv2.NamespacedSelector `json:"tierSelector,omitempty"`
}

// A LifecycleExpiration expires current object versions.
// +kubebuilder:validation:XValidation:rule="has(self.days) || has(self.date) || has(self.expiredObjectDeleteMarker)",message="expiration needs days, date or expiredObjectDeleteMarker"
// +kubebuilder:validation:XValidation:rule="!(has(self.days) && has(self.date))",message="set at most one of days or date in expiration"
// +kubebuilder:validation:XValidation:rule="!(has(self.expiredObjectDeleteMarker) && self.expiredObjectDeleteMarker && (has(self.days) || has(self.date)))",message="expiredObjectDeleteMarker cannot be combined with days or date: RustFS rejects it"
// +kubebuilder:validation:XValidation:rule="!(has(self.expiredObjectAllVersions) && self.expiredObjectAllVersions) || (has(self.days) && !has(self.date))",message="expiredObjectAllVersions requires days (1 or more) and no date"
type LifecycleExpiration struct {
	// Days after creation when objects expire.
	// +kubebuilder:validation:Minimum=1
	// +optional
	Days *int32 `json:"days,omitempty"`

	// Date when objects expire, at midnight UTC: YYYY-MM-DD or
	// YYYY-MM-DDT00:00:00Z.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:XValidation:rule="self.matches('^[0-9]{4}-[0-9]{2}-[0-9]{2}(T00:00:00([.]0+)?Z)?$')",message="date must be midnight UTC, as YYYY-MM-DD or YYYY-MM-DDT00:00:00Z: RustFS rejects other times"
	// +kubebuilder:validation:XValidation:rule="!self.matches('^[0-9]{4}-[0-9]{2}-[0-9]{2}') || (int(self.substring(5, 7)) >= 1 && int(self.substring(5, 7)) <= 12 && int(self.substring(8, 10)) >= 1 && int(self.substring(8, 10)) <= [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][int(self.substring(5, 7)) - 1] + (int(self.substring(5, 7)) == 2 && int(self.substring(0, 4)) % 4 == 0 && (int(self.substring(0, 4)) % 100 != 0 || int(self.substring(0, 4)) % 400 == 0) ? 1 : 0))",message="date must be a calendar date: the month has no such day (February 29 only in leap years); use a day that exists, as YYYY-MM-DD"
	// +optional
	Date string `json:"date,omitempty"`

	// ExpiredObjectDeleteMarker removes delete markers with no noncurrent
	// versions behind them.
	// +optional
	ExpiredObjectDeleteMarker *bool `json:"expiredObjectDeleteMarker,omitempty"`

	// ExpiredObjectAllVersions deletes all versions of expired objects
	// (RustFS/MinIO extension).
	// +optional
	ExpiredObjectAllVersions *bool `json:"expiredObjectAllVersions,omitempty"`
}

// A NoncurrentVersionExpiration expires noncurrent object versions.
type NoncurrentVersionExpiration struct {
	// NoncurrentDays after a version becomes noncurrent when it expires.
	// +kubebuilder:validation:Minimum=1
	NoncurrentDays int32 `json:"noncurrentDays"`

	// NewerNoncurrentVersions to keep.
	// +kubebuilder:validation:Minimum=0
	// +optional
	NewerNoncurrentVersions *int32 `json:"newerNoncurrentVersions,omitempty"`
}

// An AbortIncompleteMultipartUpload aborts stale multipart uploads.
type AbortIncompleteMultipartUpload struct {
	// DaysAfterInitiation when an incomplete upload is aborted.
	// +kubebuilder:validation:Minimum=1
	DaysAfterInitiation int32 `json:"daysAfterInitiation"`
}

// A DelMarkerExpiration removes delete markers (RustFS/MinIO extension).
type DelMarkerExpiration struct {
	// Days after which delete markers are removed.
	// +kubebuilder:validation:Minimum=1
	Days int32 `json:"days"`
}
