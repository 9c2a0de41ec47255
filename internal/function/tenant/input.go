package tenant

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A ProviderConfigKind is the kind of configuration the composed managed
// resources use.
// +kubebuilder:validation:Enum=ProviderConfig;ClusterProviderConfig
type ProviderConfigKind string

// Provider configuration kinds.
const (
	KindProviderConfig        ProviderConfigKind = "ProviderConfig"
	KindClusterProviderConfig ProviderConfigKind = "ClusterProviderConfig"
)

// A ProviderConfigReference names the ProviderConfig (in the Tenant's
// namespace) or ClusterProviderConfig every composed resource uses.
type ProviderConfigReference struct {
	// Kind of the configuration.
	Kind ProviderConfigKind `json:"kind"`

	// Name of the configuration.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// A TenantTier is a remote storage tier of the Tenant, in the RustFS
// operator's shape. It renders to a Tier.
// +kubebuilder:validation:XValidation:rule="!has(self.storageClass) || size(self.storageClass) == 0 || self.type == 'S3'",message="storageClass is the remote storage class of an S3 tier; RustFS ignores it for other types (and refuses it for Azure), so set it only when type is S3"
// +kubebuilder:validation:XValidation:rule="self.type == 'Wasabi' || (has(self.endpoint) && size(self.endpoint) > 0)",message="endpoint is required: the URL of the remote storage (only a Wasabi tier derives it from region)"
// +kubebuilder:validation:XValidation:rule="self.type != 'Wasabi' || !has(self.endpoint) || size(self.endpoint) == 0",message="endpoint must not be set for a Wasabi tier: RustFS derives it from region (https://s3.<region>.wasabisys.com, or https://s3.wasabisys.com for us-east-1)"
// +kubebuilder:validation:XValidation:rule="self.type != 'Wasabi' || (has(self.region) && self.region.matches('^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'))",message="region is required for a Wasabi tier, for example us-east-1: RustFS derives the endpoint from it; use lower-case letters, digits and '-'"
// +kubebuilder:validation:XValidation:rule="self.type == 'GCS' || !has(self.credsSecret.authorizedUserKey)",message="credsSecret.authorizedUserKey is for a GCS tier, whose credentials are a Google authorized-user JSON; other types read accessKeyKey and secretKeyKey"
// +kubebuilder:validation:XValidation:rule="self.type != 'Azure' || !has(self.endpoint) || !self.endpoint.matches('^(?i)[a-z][a-z0-9+.-]*://[^/?#]*[.]core[.](windows[.]net|chinacloudapi[.]cn|usgovcloudapi[.]net)[.]?(:[0-9]*)?([/?#].*)?$')",message="endpoint of an Azure tier must be an S3-compatible endpoint: RustFS reaches Azure tiers over the S3 API (SigV4, bucket as a virtual host), which Azure Storage endpoints (*.core.windows.net) do not speak; put an S3 gateway in front of the storage account and name it here"
type TenantTier struct {
	// Name of the tier in RustFS. Lifecycle transitions name it as their
	// storageClass. It is used as a raw URL path segment by RustFS's admin
	// API, so only A-Z, 0-9, '_', '-' and '.' are allowed.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Z0-9_.-]+$')",message="name may contain only A-Z, 0-9, '_', '-' and '.': RustFS requires uppercase tier names, and uses the name as a raw URL path segment when rotating credentials, so characters that need percent-encoding would make the tier impossible to edit"
	// +kubebuilder:validation:XValidation:rule="self != '.' && self != '..'",message="name must not be '.' or '..': RustFS uses the tier name as a URL path segment, where these are path navigation"
	// +kubebuilder:validation:XValidation:rule="!(self.upperAscii() in ['STANDARD', 'REDUCED_REDUNDANCY'])",message="name must not be STANDARD or REDUCED_REDUNDANCY (in any case): RustFS reserves these storage class names"
	Name string `json:"name"`

	// Type of the remote storage.
	Type v1alpha1.TierType `json:"type"`

	// Endpoint is the URL of the remote storage. Required for every type
	// but Wasabi, whose endpoint RustFS derives from region.
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && url(self).getScheme() in ['http', 'https'] && size(url(self).getHostname()) > 0",message="endpoint must be an http:// or https:// URL with a host, for example https://s3.example.com"
	// +kubebuilder:validation:XValidation:rule="!self.contains('@') && !self.contains('?') && !self.contains('#')",message="endpoint must not contain user info (user:password@), a query or a fragment: RustFS would store it in the tier and list it; put the keys in the Secret",reason=FieldValueForbidden
	// +optional
	Endpoint string `json:"endpoint,omitempty"`

	// Bucket on the remote storage that receives transitioned objects.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Bucket string `json:"bucket"`

	// Prefix within the remote bucket.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Prefix string `json:"prefix,omitempty"`

	// Region of the remote bucket.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Region string `json:"region,omitempty"`

	// StorageClass is the remote storage class objects are written with.
	// S3 type only.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	StorageClass string `json:"storageClass,omitempty"`

	// CredsSecret names the Secret, in the namespace of the composed
	// resources, holding the remote storage credentials: the S3 access and
	// secret keys of the remote (Azure's S3-compatible endpoint too), or
	// GCS's Google authorized-user JSON under authorizedUserKey.
	CredsSecret v1alpha1.TierSecretReference `json:"credsSecret"`

	// Force registers the tier even if the remote prefix already holds
	// objects. Use it only for a prefix that belongs to this tenant. It is
	// sent only when the tier is added.
	// +optional
	Force bool `json:"force,omitempty"`
}

// A BucketDeletion is what happens to a Tenant's bucket in RustFS when its
// Bucket is deleted.
type BucketDeletion string

// The bucket deletion choices.
const (
	DeletionRetain        BucketDeletion = "Retain"
	DeletionDeleteIfEmpty BucketDeletion = "DeleteIfEmpty"
)

// A TenantBucket is a bucket of the Tenant. It renders to a Bucket and, when
// it has a lifecycle, to a BucketLifecycle.
type TenantBucket struct {
	// Name of the bucket in RustFS (S3 bucket naming rules).
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9.-]+$')",message="name may contain only lowercase letters, digits, '.' and '-'"
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9](.*[a-z0-9])?$')",message="name must begin and end with a lowercase letter or a digit"
	// +kubebuilder:validation:XValidation:rule="!self.contains('..')",message="name must not contain two adjacent periods"
	// +kubebuilder:validation:XValidation:rule="!self.matches('^[0-9]+[.][0-9]+[.][0-9]+[.][0-9]+$')",message="name must not be formatted as an IP address"
	// +kubebuilder:validation:XValidation:rule="!['xn--', 'sthree-', 'amzn-s3-demo-'].exists(p, self.startsWith(p))",message="name must not start with a reserved prefix (xn--, sthree- or amzn-s3-demo-): S3 reserves them"
	// +kubebuilder:validation:XValidation:rule="!['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'].exists(s, self.endsWith(s))",message="name must not end with a reserved suffix (-s3alias, --ol-s3, .mrap, --x-s3 or --table-s3): S3 reserves them"
	Name string `json:"name"`

	v1alpha1.BucketParameters `json:",inline"`

	// Deletion says what happens to the bucket in RustFS when the entry is
	// removed or the Tenant deleted: Retain (the default) keeps it;
	// DeleteIfEmpty deletes it only when it holds nothing (no object,
	// version, delete marker or incomplete upload), and otherwise keeps it
	// and reports what remains.
	// +kubebuilder:validation:Enum=Retain;DeleteIfEmpty
	// +kubebuilder:default=Retain
	// +optional
	Deletion BucketDeletion `json:"deletion,omitempty"`

	// Lifecycle of the bucket. Absent leaves the bucket's lifecycle
	// configuration as it is.
	// +optional
	Lifecycle *TenantLifecycle `json:"lifecycle,omitempty"`
}

// A TenantSpec is the desired state of a Tenant.
// +kubebuilder:validation:XValidation:rule="!has(self.access) || self.access.all(a, a.buckets.all(b, has(self.buckets) && self.buckets.exists(x, x.name == b)))",message="access[].buckets must name buckets of spec.buckets: an access entry grants only this Tenant's own buckets"
type TenantSpec struct {
	// ProviderConfigRef names the configuration every composed resource
	// uses.
	// +kubebuilder:default={"kind": "ClusterProviderConfig", "name": "default"}
	// +optional
	ProviderConfigRef *ProviderConfigReference `json:"providerConfigRef,omitempty"`

	// Tiers are the remote storage tiers of the tenant. A tier removed
	// from this list is retained in RustFS.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	// +optional
	Tiers []TenantTier `json:"tiers,omitempty"`

	// Buckets are the buckets of the tenant. A bucket removed from this
	// list is retained in RustFS.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=64
	// +optional
	Buckets []TenantBucket `json:"buckets,omitempty"`

	// Access are keys to the tenant's buckets, one BucketAccess each,
	// published in a connection Secret named after it. Removing an entry
	// revokes its key.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=32
	// +optional
	Access []TenantAccess `json:"access,omitempty"`
}

// An ItemStatus is the observed state of one tier or bucket of a Tenant.
type ItemStatus struct {
	// Name of the tier or bucket.
	Name string `json:"name"`

	// Ready is true when every resource composed for the entry is Ready.
	Ready bool `json:"ready"`

	// Synced is true when every resource composed for the entry is Synced.
	Synced bool `json:"synced"`

	// Reason of the most relevant condition, for example TierConflict.
	// +optional
	Reason string `json:"reason,omitempty"`

	// Message of the most relevant condition: what is wrong and what to
	// do next.
	// +optional
	Message string `json:"message,omitempty"`

	// Usage of a bucket, every object version counted, as RustFS last
	// reported it (a quantity, for example 600Mi).
	// +optional
	Usage string `json:"usage,omitempty"`

	// Quota of a bucket: its hard limit in RustFS, absent when none.
	// +optional
	Quota string `json:"quota,omitempty"`
}

// A TierStatus is the observed state of one tier of a Tenant: its row and,
// as the RustFS operator records per tier, the credentials the provider
// last applied to it. It never holds a key.
type TierStatus struct {
	ItemStatus `json:",inline"`

	// Credentials are the name and resourceVersion of the Secret the
	// provider last applied to the tier, and a SHA-256 hash of its access
	// key, from the Tier's status.atProvider.credentials. Absent until the
	// provider has applied credentials.
	// +optional
	Credentials *v1alpha1.TierCredentialsStatus `json:"credentials,omitempty"`
}

// A TenantStatus is the observed state of a Tenant.
type TenantStatus struct {
	// Tiers has one row per spec.tiers entry.
	// +optional
	Tiers []TierStatus `json:"tiers,omitempty"`

	// Buckets has one row per spec.buckets entry, covering its Bucket and
	// BucketLifecycle.
	// +optional
	Buckets []ItemStatus `json:"buckets,omitempty"`

	// Access has one row per spec.access entry, with its Secret's name.
	// +optional
	Access []AccessStatus `json:"access,omitempty"`

	// Summary counts the rows, for the kubectl get columns.
	// +optional
	Summary *StatusSummary `json:"summary,omitempty"`
}

// A StatusSummary counts a Tenant's status rows.
type StatusSummary struct {
	// Tiers is "ready/total" of the tier rows.
	Tiers string `json:"tiers"`

	// Buckets is "ready/total" of the bucket rows.
	Buckets string `json:"buckets"`

	// Conflicts is how many rows report a conflict: a TierConflict or
	// BucketConflict the provider cannot resolve without a change of the
	// spec or of another resource.
	Conflicts int `json:"conflicts"`
}

// +kubebuilder:object:root=true

// A Tenant declares the tiers, buckets and lifecycle rules of one RustFS
// tenant, in the RustFS operator's Tenant shape.
type Tenant struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   TenantSpec   `json:"spec"`
	Status TenantStatus `json:"status,omitempty"`
}
