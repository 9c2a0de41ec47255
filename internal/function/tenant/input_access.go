package tenant

import (
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A TenantAccess is a key to some of the Tenant's own buckets. It renders
// to a BucketAccess <tenant>-access-<name>, whose connection Secret of the
// same name holds endpoint, region, accessKey, secretKey and buckets.
// +kubebuilder:validation:XValidation:rule="self.buckets.all(b, self.buckets.exists_one(c, c == b))",message="buckets must not name the same bucket twice"
type TenantAccess struct {
	// Name of the entry; the BucketAccess and its connection Secret are
	// named <tenant>-access-<name>.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([a-z0-9-]*[a-z0-9])?$')",message="name must be a DNS label: a-z, 0-9 and '-', starting and ending with a letter or digit"
	Name string `json:"name"`

	// Buckets are names of this Tenant's spec.buckets entries; the key is
	// granted only those.
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MinLength=3
	// +kubebuilder:validation:items:MaxLength=63
	// +kubebuilder:validation:items:XValidation:rule="self.matches('^[a-z0-9.-]+$')",message="bucket may contain only lowercase letters, digits, '.' and '-'"
	// +kubebuilder:validation:items:XValidation:rule="self.matches('^[a-z0-9](.*[a-z0-9])?$')",message="bucket must begin and end with a lowercase letter or a digit"
	// +kubebuilder:validation:items:XValidation:rule="!self.contains('..')",message="bucket must not contain two adjacent periods"
	// +kubebuilder:validation:items:XValidation:rule="!self.matches('^[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$')",message="bucket must not be formatted as an IP address"
	// +kubebuilder:validation:items:XValidation:rule="!['xn--', 'sthree-', 'amzn-s3-demo-'].exists(p, self.startsWith(p))",message="bucket must not start with a reserved prefix (xn--, sthree- or amzn-s3-demo-): S3 reserves them"
	// +kubebuilder:validation:items:XValidation:rule="!['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'].exists(s, self.endsWith(s))",message="bucket must not end with a reserved suffix (-s3alias, --ol-s3, .mrap, --x-s3 or --table-s3): S3 reserves them"
	Buckets []string `json:"buckets"`

	// Access is ReadOnly (list and read objects) or ReadWrite (also write
	// and delete objects), for every bucket of the entry.
	Access v1alpha1.AccessLevel `json:"access"`

	// Prefix limits the key to the objects whose keys start with it, in
	// every bucket of the entry. Empty grants whole buckets.
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="!self.contains('*') && !self.contains('?') && !self.contains('$')",message="prefix must not contain '*', '?' or '$': RustFS reads them as policy wildcards and variables, which would widen the grant"
	// +kubebuilder:validation:XValidation:rule="!self.startsWith('/')",message="prefix must not start with '/': object keys are matched without a leading slash"
	// +kubebuilder:validation:XValidation:rule="!self.contains('//') && !self.matches('(^|/)[.][.]?(/|$)')",message="prefix must not contain '.' or '..' segments or '//': RustFS matches cleaned paths, so such a prefix never matches"
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\\\x00-\\\\x1f\\\\x7f]')",message="prefix must not contain control characters"
	// +optional
	Prefix string `json:"prefix,omitempty"`

	// Rotation replaces the key's secret key whenever it changes, for
	// example when it is incremented.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Rotation int64 `json:"rotation,omitempty"`
}

// An AccessStatus is the observed state of one access entry of a Tenant.
type AccessStatus struct {
	ItemStatus `json:",inline"`

	// SecretName is the connection Secret, in the namespace of the composed
	// resources, that holds the key once Ready.
	SecretName string `json:"secretName"`
}
