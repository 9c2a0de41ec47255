package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// An AccessLevel is what a BucketAccess key may do with one bucket.
// +kubebuilder:validation:Enum=ReadOnly;ReadWrite
type AccessLevel string

// Access levels (docs/rustfs-wire.md §16.7 lists the S3 actions of each).
const (
	// AccessReadOnly lists the bucket (within the prefix), reads objects
	// and the bucket's location.
	AccessReadOnly AccessLevel = "ReadOnly"

	// AccessReadWrite is ReadOnly plus writing and deleting objects and
	// multipart uploads.
	AccessReadWrite AccessLevel = "ReadWrite"
)

// The keys of a BucketAccess's connection Secret.
const (
	// ConnectionEndpoint is the RustFS endpoint of the ProviderConfig, the
	// S3 API's base URL.
	ConnectionEndpoint = "endpoint"
	// ConnectionRegion is the region to sign requests for.
	ConnectionRegion = "region"
	// ConnectionAccessKey is the key's access key.
	ConnectionAccessKey = "accessKey"
	// ConnectionSecretKey is the key's secret key; it exists nowhere else.
	ConnectionSecretKey = "secretKey"
	// ConnectionBuckets are the granted buckets, comma separated and
	// sorted.
	ConnectionBuckets = "buckets"
)

// A BucketGrant gives one access level to one bucket of the BucketAccess's
// namespace, or to the objects under a prefix of it.
// +kubebuilder:validation:XValidation:rule="(has(self.bucket) && size(self.bucket) > 0) || has(self.bucketRef) || has(self.bucketSelector)",message="set bucket, bucketRef or bucketSelector"
// +kubebuilder:validation:XValidation:rule="!has(self.bucketRef) || ((!has(self.bucketRef.__namespace__) || size(self.bucketRef.__namespace__) == 0) && (!has(self.bucketRef.policy) || !has(self.bucketRef.policy.resolution) || self.bucketRef.policy.resolution == 'Required'))",message="bucketRef must name a Bucket in the same namespace and must not set policy.resolution Optional: a key is granted only buckets of its own namespace"
// +kubebuilder:validation:XValidation:rule="!has(self.bucketSelector) || ((!has(self.bucketSelector.__namespace__) || size(self.bucketSelector.__namespace__) == 0) && (!has(self.bucketSelector.policy) || !has(self.bucketSelector.policy.resolution) || self.bucketSelector.policy.resolution == 'Required'))",message="bucketSelector must select Buckets in the same namespace and must not set policy.resolution Optional: a key is granted only buckets of its own namespace"
type BucketGrant struct {
	// Bucket is the name of the bucket. It must be owned by a Bucket of
	// this namespace or, with the ProviderConfig's nameScope
	// NamespacePrefix, start with "<namespace>-" (docs/multi-tenancy.md).
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

	// BucketRef references a Bucket of this namespace whose name becomes
	// bucket once the Bucket is Ready.
	// +optional
	BucketRef *xpv2.NamespacedReference `json:"bucketRef,omitempty"`

	// BucketSelector selects a Bucket of this namespace whose name becomes
	// bucket once the Bucket is Ready.
	// +optional
	BucketSelector *xpv2.NamespacedSelector `json:"bucketSelector,omitempty"`

	// Access is ReadOnly (list and read objects) or ReadWrite (also write
	// and delete objects).
	Access AccessLevel `json:"access"`

	// Prefix limits the grant to the objects whose keys start with it, and
	// listing to prefix= values under it. Empty grants the whole bucket.
	// A prefix-scoped key cannot HeadBucket.
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="!self.contains('*') && !self.contains('?') && !self.contains('$')",message="prefix must not contain '*', '?' or '$': RustFS reads them as policy wildcards and variables, which would widen the grant"
	// +kubebuilder:validation:XValidation:rule="!self.startsWith('/')",message="prefix must not start with '/': object keys are matched without a leading slash"
	// +kubebuilder:validation:XValidation:rule="!self.contains('//') && !self.matches('(^|/)[.][.]?(/|$)')",message="prefix must not contain '.' or '..' segments or '//': RustFS matches cleaned paths, so such a prefix never matches"
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\\\x00-\\\\x1f\\\\x7f]')",message="prefix must not contain control characters"
	// +optional
	Prefix string `json:"prefix,omitempty"`
}

// BucketAccessParameters are the buckets a key is granted, and when to
// replace its secret key.
type BucketAccessParameters struct {
	// Buckets the key may use, each with an access level and an optional
	// prefix. The provider generates the key's session policy from this
	// list; a bucket may appear more than once with different prefixes.
	// The same bucket and prefix twice is refused at admission when named
	// directly, and before any write once references are resolved.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:XValidation:rule="self.all(x, !has(x.bucket) || size(x.bucket) == 0 || self.filter(y, has(y.bucket) && y.bucket == x.bucket && (has(y.prefix) ? y.prefix : '') == (has(x.prefix) ? x.prefix : '')).size() == 1)",message="buckets must not name the same bucket and prefix twice: merge the entries into one with the access level you want"
	Buckets []BucketGrant `json:"buckets"`

	// Rotation replaces the key's secret key whenever it changes, for
	// example when it is incremented; the connection Secret receives the
	// new one and the old one stops working at once.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Rotation int64 `json:"rotation,omitempty"`
}

// BucketAccessObservation is the observed state of a BucketAccess's key.
type BucketAccessObservation struct {
	// AccessKey of the RustFS service account. The provider derives it from
	// the resource's namespace, name and UID; it is not a secret.
	AccessKey string `json:"accessKey,omitempty"`

	// ParentUser is the RustFS user the service account belongs to: one per
	// namespace, never the ProviderConfig's admin.
	ParentUser string `json:"parentUser,omitempty"`

	// Buckets the key's session policy grants.
	Buckets []string `json:"buckets,omitempty"`

	// Rotation is the spec.forProvider.rotation whose secret key the
	// connection Secret holds.
	Rotation int64 `json:"rotation,omitempty"`
}

// A BucketAccessSpec defines the desired state of a BucketAccess. Unlike the
// other kinds it is not Retain-only: deleting it deletes the key.
// +kubebuilder:validation:XValidation:rule="has(self.writeConnectionSecretToRef) && size(self.writeConnectionSecretToRef.name) > 0",message="writeConnectionSecretToRef is required: the key's secret key is published only in that Secret, in the BucketAccess's namespace"
type BucketAccessSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`
	ForProvider              BucketAccessParameters `json:"forProvider"`
}

// A BucketAccessStatus represents the observed state of a BucketAccess.
type BucketAccessStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 BucketAccessObservation `json:"atProvider,omitempty"`

	// Custody is the provider's record of this resource's access to RustFS;
	// see docs/multi-tenancy.md.
	// +optional
	Custody *Custody `json:"custody,omitempty"`
}

// +kubebuilder:object:root=true

// A BucketAccess is a RustFS service account scoped to buckets of its
// namespace: a key for an application, published with the endpoint,
// region and bucket names in the connection Secret. Deleting it revokes the
// key.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="ACCESS-KEY",type="string",JSONPath=".status.atProvider.accessKey"
// +kubebuilder:printcolumn:name="SECRET",type="string",JSONPath=".spec.writeConnectionSecretToRef.name"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,rustfs}
type BucketAccess struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BucketAccessSpec   `json:"spec"`
	Status BucketAccessStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// BucketAccessList contains a list of BucketAccess.
type BucketAccessList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BucketAccess `json:"items"`
}

// GetCustody returns the BucketAccess's custody record, or nil.
func (a *BucketAccess) GetCustody() *Custody { return a.Status.Custody }

// SetCustody sets the BucketAccess's custody record.
func (a *BucketAccess) SetCustody(c *Custody) { a.Status.Custody = c }
