package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A LifecycleRule is one rule of a bucket lifecycle configuration.
// +kubebuilder:validation:XValidation:rule="(has(self.transitions) && size(self.transitions) > 0) || (has(self.noncurrentVersionTransitions) && size(self.noncurrentVersionTransitions) > 0) || has(self.expiration) || has(self.noncurrentVersionExpiration) || has(self.abortIncompleteMultipartUpload) || has(self.delMarkerExpiration)",message="a rule needs at least one action (transitions, noncurrentVersionTransitions, expiration, noncurrentVersionExpiration, abortIncompleteMultipartUpload or delMarkerExpiration): RustFS rejects rules without one"
// +kubebuilder:validation:XValidation:rule="!(has(self.filter) && (has(self.filter.tag) || (has(self.filter.and) && has(self.filter.and.tags) && size(self.filter.and.tags) > 0))) || (!has(self.delMarkerExpiration) && !(has(self.expiration) && has(self.expiration.expiredObjectDeleteMarker) && self.expiration.expiredObjectDeleteMarker))",message="delMarkerExpiration and expiration.expiredObjectDeleteMarker cannot be used with a tag filter: delete markers have no tags, and RustFS rejects the rule"
type LifecycleRule struct {
	// ID uniquely identifies the rule within the bucket.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="size(bytes(self)) <= 255",message="id must be at most 255 bytes: RustFS rejects longer rule IDs"
	ID string `json:"id"`

	// Status enables or disables the rule.
	// +kubebuilder:default=Enabled
	// +optional
	Status RuleStatus `json:"status,omitempty"`

	// Filter selects the objects the rule applies to; absent means the
	// whole bucket.
	// +optional
	Filter *LifecycleFilter `json:"filter,omitempty"`

	// Transitions move current versions to tiers.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Transitions []Transition `json:"transitions,omitempty"`

	// NoncurrentVersionTransitions move noncurrent versions to tiers.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=16
	// +optional
	NoncurrentVersionTransitions []NoncurrentVersionTransition `json:"noncurrentVersionTransitions,omitempty"`

	// Expiration expires current versions.
	// +optional
	Expiration *LifecycleExpiration `json:"expiration,omitempty"`

	// NoncurrentVersionExpiration expires noncurrent versions.
	// +optional
	NoncurrentVersionExpiration *NoncurrentVersionExpiration `json:"noncurrentVersionExpiration,omitempty"`

	// AbortIncompleteMultipartUpload aborts stale multipart uploads.
	// +optional
	AbortIncompleteMultipartUpload *AbortIncompleteMultipartUpload `json:"abortIncompleteMultipartUpload,omitempty"`

	// DelMarkerExpiration removes delete markers.
	// +optional
	DelMarkerExpiration *DelMarkerExpiration `json:"delMarkerExpiration,omitempty"`
}

// BucketLifecycleParameters are the lifecycle configuration of one bucket.
// +kubebuilder:validation:XValidation:rule="(has(self.bucket) && size(self.bucket) > 0) || has(self.bucketRef) || has(self.bucketSelector)",message="set bucket, bucketRef or bucketSelector"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.bucket) || size(oldSelf.bucket) == 0 || (has(self.bucket) && self.bucket == oldSelf.bucket)",message="bucket is immutable once set: create a new BucketLifecycle for another bucket"
// +kubebuilder:validation:XValidation:rule="!has(self.bucketRef) || ((!has(self.bucketRef.__namespace__) || size(self.bucketRef.__namespace__) == 0) && (!has(self.bucketRef.policy) || !has(self.bucketRef.policy.resolution) || self.bucketRef.policy.resolution == 'Required'))",message="bucketRef must name a Bucket in the same namespace and must not set policy.resolution Optional"
// +kubebuilder:validation:XValidation:rule="!has(self.bucketSelector) || ((!has(self.bucketSelector.__namespace__) || size(self.bucketSelector.__namespace__) == 0) && (!has(self.bucketSelector.policy) || !has(self.bucketSelector.policy.resolution) || self.bucketSelector.policy.resolution == 'Required'))",message="bucketSelector must select Buckets in the same namespace and must not set policy.resolution Optional"
type BucketLifecycleParameters struct {
	// Bucket is the name of the bucket whose lifecycle this is.
	// +crossplane:generate:reference:type=Bucket
	// +crossplane:generate:reference:extractor=BucketNameIfReady()
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9.-]+$')",message="bucket may contain only lowercase letters, digits, '.' and '-'"
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9](.*[a-z0-9])?$')",message="bucket must begin and end with a lowercase letter or a digit"
	// +kubebuilder:validation:XValidation:rule="!self.contains('..')",message="bucket must not contain two adjacent periods"
	// +kubebuilder:validation:XValidation:rule="!self.matches('^[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$')",message="bucket must not be formatted as an IP address"
	// +kubebuilder:validation:XValidation:rule="!['xn--', 'sthree-', 'amzn-s3-demo-'].exists(p, self.startsWith(p))",message="bucket must not start with a reserved prefix (xn--, sthree- or amzn-s3-demo-): S3 reserves them"
	// +kubebuilder:validation:XValidation:rule="!['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'].exists(s, self.endsWith(s))",message="bucket must not end with a reserved suffix (-s3alias, --ol-s3, .mrap, --x-s3 or --table-s3): S3 reserves them"
	// +optional
	Bucket string `json:"bucket,omitempty"`

	// BucketRef references a Bucket whose name becomes bucket once the
	// Bucket is Ready.
	// +optional
	BucketRef *xpv2.NamespacedReference `json:"bucketRef,omitempty"`

	// BucketSelector selects a Bucket whose name becomes bucket once the
	// Bucket is Ready.
	// +optional
	BucketSelector *xpv2.NamespacedSelector `json:"bucketSelector,omitempty"`

	// Rules of the lifecycle configuration. An empty list removes the
	// bucket's lifecycle configuration.
	// +listType=map
	// +listMapKey=id
	// +kubebuilder:validation:MaxItems=1000
	Rules []LifecycleRule `json:"rules"`
}

// BucketLifecycleObservation is the observed lifecycle configuration.
type BucketLifecycleObservation struct {
	// RuleIDs of the live configuration.
	RuleIDs []string `json:"ruleIds,omitempty"`

	// Rules is how many rules the live configuration holds.
	// +optional
	Rules int `json:"rules,omitempty"`

	// AppliedHash is a hash of the configuration the provider last put.
	AppliedHash string `json:"appliedHash,omitempty"`

	// ObservedHash is a hash of the configuration RustFS returned after
	// that put.
	ObservedHash string `json:"observedHash,omitempty"`

	// DroppedFields lists fields RustFS did not keep from the last put.
	DroppedFields []string `json:"droppedFields,omitempty"`
}

// A BucketLifecycleSpec defines the desired state of a BucketLifecycle.
// +kubebuilder:validation:XValidation:rule="!has(self.managementPolicies) || !self.managementPolicies.exists(p, p == 'Delete' || p == '*')",message="managementPolicies must not contain Delete or '*': lifecycle rules are Retain-only, so deleting the BucketLifecycle leaves the rules in place; remove all rules from spec.forProvider.rules to delete them"
type BucketLifecycleSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`
	ForProvider              BucketLifecycleParameters `json:"forProvider"`
}

// A BucketLifecycleStatus represents the observed state of a
// BucketLifecycle.
type BucketLifecycleStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 BucketLifecycleObservation `json:"atProvider,omitempty"`

	// Custody is the provider's record of this resource's claim to its
	// RustFS object; see docs/multi-tenancy.md.
	// +optional
	Custody *Custody `json:"custody,omitempty"`
}

// +kubebuilder:object:root=true

// A BucketLifecycle is the lifecycle configuration of a RustFS bucket:
// transition, expiration and cleanup rules.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="BUCKET",type="string",JSONPath=".spec.forProvider.bucket"
// +kubebuilder:printcolumn:name="RULES",type="integer",JSONPath=".status.atProvider.rules"
// +kubebuilder:printcolumn:name="DEGRADED",type="string",JSONPath=".status.conditions[?(@.type=='LifecycleDegraded')].status"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,rustfs}
type BucketLifecycle struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BucketLifecycleSpec   `json:"spec"`
	Status BucketLifecycleStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// BucketLifecycleList contains a list of BucketLifecycle.
type BucketLifecycleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BucketLifecycle `json:"items"`
}
