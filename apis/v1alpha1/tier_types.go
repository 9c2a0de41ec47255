package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A TierType is the kind of remote storage behind a tier: one of the types
// RustFS defines (docs/rustfs-wire.md §2).
// +kubebuilder:validation:Enum=S3;RustFS;MinIO;Aliyun;Tencent;HuaweiCloud;R2;Azure;GCS;Wasabi
type TierType string

// Supported tier types.
const (
	TierTypeS3          TierType = "S3"
	TierTypeRustFS      TierType = "RustFS"
	TierTypeMinIO       TierType = "MinIO"
	TierTypeAliyun      TierType = "Aliyun"
	TierTypeTencent     TierType = "Tencent"
	TierTypeHuaweiCloud TierType = "HuaweiCloud"
	TierTypeR2          TierType = "R2"
	TierTypeAzure       TierType = "Azure"
	TierTypeGCS         TierType = "GCS"
	TierTypeWasabi      TierType = "Wasabi"
)

// DefaultAuthorizedUserKey is the Secret key a GCS tier reads its Google
// authorized-user JSON from when credentialsSecretRef.authorizedUserKey is
// not set.
const DefaultAuthorizedUserKey = "credentials.json"

// A TierSecretReference names the Secret, in the Tier's namespace, that
// holds the remote storage credentials: the access key and secret key of
// the S3 API of the remote (Azure included: RustFS reaches an Azure tier
// over S3, docs/rustfs-wire.md §2), or for GCS a Google OAuth
// authorized-user JSON.
type TierSecretReference struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	CredentialKeys `json:",inline"`

	// AuthorizedUserKey is the Secret key holding a GCS tier's Google OAuth
	// authorized-user JSON: an object with the strings type, client_id,
	// client_secret and refresh_token, as `gcloud auth
	// application-default login` writes it. RustFS builds its Google
	// credentials from that and refuses a service-account key, which has
	// no client_secret or refresh_token. RustFS 1.0.0-rc adds and rotates
	// such a tier; RustFS 1.0.x refuses every GCS tier (its credential
	// check wants a service account, its GCS backend an authorized user,
	// and the backend cannot find the probe object every add writes).
	// GCS type only; default credentials.json. The other types read
	// accessKeyKey and secretKeyKey.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +optional
	AuthorizedUserKey string `json:"authorizedUserKey,omitempty"`
}

// TierParameters are the settings of a RustFS remote tier.
// +kubebuilder:validation:XValidation:rule="!has(self.storageClass) || size(self.storageClass) == 0 || self.type == 'S3'",message="storageClass is the remote storage class of an S3 tier; RustFS ignores it for other types (and refuses it for Azure), so set it only when type is S3"
// +kubebuilder:validation:XValidation:rule="self.type == 'Wasabi' || (has(self.endpoint) && size(self.endpoint) > 0)",message="endpoint is required: the URL of the remote storage (only a Wasabi tier derives it from region)"
// +kubebuilder:validation:XValidation:rule="self.type != 'Wasabi' || !has(self.endpoint) || size(self.endpoint) == 0",message="endpoint must not be set for a Wasabi tier: RustFS derives it from region (https://s3.<region>.wasabisys.com, or https://s3.wasabisys.com for us-east-1)"
// +kubebuilder:validation:XValidation:rule="self.type != 'Wasabi' || (has(self.region) && self.region.matches('^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'))",message="region is required for a Wasabi tier, for example us-east-1: RustFS derives the endpoint from it; use lower-case letters, digits and '-'"
// +kubebuilder:validation:XValidation:rule="self.type == 'GCS' || !has(self.credentialsSecretRef.authorizedUserKey)",message="credentialsSecretRef.authorizedUserKey is for a GCS tier, whose credentials are a Google authorized-user JSON; other types read accessKeyKey and secretKeyKey"
// +kubebuilder:validation:XValidation:rule="self.type != 'Azure' || !has(self.endpoint) || !self.endpoint.matches('^(?i)[a-z][a-z0-9+.-]*://[^/?#]*[.]core[.](windows[.]net|chinacloudapi[.]cn|usgovcloudapi[.]net)[.]?(:[0-9]*)?([/?#].*)?$')",message="endpoint of an Azure tier must be an S3-compatible endpoint: RustFS reaches Azure tiers over the S3 API (SigV4, bucket as a virtual host), which Azure Storage endpoints (*.core.windows.net) do not speak; put an S3 gateway in front of the storage account and name it here"
type TierParameters struct {
	// Name of the tier in RustFS. Bucket lifecycle transitions name it as
	// their StorageClass. RustFS itself accepts any name that upper-casing
	// leaves unchanged, non-ASCII included, but its credential-edit and
	// remove routes match the name against the request path without
	// percent-decoding it: a name with a character that a URL path must
	// percent-encode (any non-ASCII letter, a space, '/', '%', …) could be
	// added but never rotated (edit answers TierNotFound) nor removed
	// (remove answers success and removes nothing). So only A-Z, 0-9, '_',
	// '-' and '.' are allowed (docs/rustfs-wire.md §3.4).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Z0-9_.-]+$')",message="name may contain only A-Z, 0-9, '_', '-' and '.': RustFS requires uppercase tier names, and uses the name as a raw URL path segment when rotating credentials, so characters that need percent-encoding would make the tier impossible to edit"
	// +kubebuilder:validation:XValidation:rule="self != '.' && self != '..'",message="name must not be '.' or '..': RustFS uses the tier name as a URL path segment, where these are path navigation"
	// +kubebuilder:validation:XValidation:rule="!(self.upperAscii() in ['STANDARD', 'REDUCED_REDUNDANCY'])",message="name must not be STANDARD or REDUCED_REDUNDANCY (in any case): RustFS reserves these storage class names"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="name is immutable: RustFS cannot rename a tier; create a new Tier instead"
	Name string `json:"name"`

	// Type of the remote storage.
	Type TierType `json:"type"`

	// Endpoint is the URL of the remote storage, for example
	// https://s3.amazonaws.com or https://storage.googleapis.com. Required
	// for every type but Wasabi, whose endpoint RustFS derives from region.
	// An Azure tier's endpoint is an S3-compatible endpoint that serves
	// buckets as virtual hosts (<bucket>.<host>): RustFS's azure backend is
	// an S3 client, so an Azure Storage endpoint (*.blob.core.windows.net)
	// does not work. RustFS refuses endpoints whose host is localhost or a
	// loopback, private, link-local, unspecified or metadata IP address in
	// any notation (2130706433 is 127.0.0.1): 1.0.0-rc for S3 and Wasabi,
	// 1.0.x for every type; use a host name.
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && url(self).getScheme() in ['http', 'https'] && size(url(self).getHostname()) > 0",message="endpoint must be an http:// or https:// URL with a host, for example https://s3.example.com"
	// +kubebuilder:validation:XValidation:rule="!self.contains('@') && !self.contains('?') && !self.contains('#')",message="endpoint must not contain user info (user:password@), a query or a fragment: RustFS would store it in the tier and list it; put the keys in the Secret",reason=FieldValueForbidden
	// +optional
	Endpoint string `json:"endpoint,omitempty"`

	// Bucket on the remote storage that receives transitioned objects.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Bucket string `json:"bucket"`

	// Prefix within the remote bucket. RustFS trims '/' on both sides for
	// S3 and Wasabi, and one trailing '/' for the other types, so
	// prefixes that trim equally are the same prefix.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Prefix string `json:"prefix,omitempty"`

	// Region of the remote bucket. Required for Wasabi.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Region string `json:"region,omitempty"`

	// StorageClass is the remote storage class objects are written with.
	// S3 type only: the S3 backend is the one that uses it.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	StorageClass string `json:"storageClass,omitempty"`

	// CredentialsSecretRef names the Secret holding the remote storage
	// credentials: the S3 access and secret keys of the remote (for Azure
	// those of its S3-compatible endpoint, not a storage account key), or
	// GCS's Google authorized-user JSON. A change of the Secret rotates the
	// tier's credentials in RustFS.
	CredentialsSecretRef TierSecretReference `json:"credentialsSecretRef"`

	// Force registers the tier even if the remote prefix already holds
	// objects. Use it only for a prefix that belongs to this tier, for
	// example after a restore. It is sent only when the tier is added.
	// +optional
	Force bool `json:"force,omitempty"`
}

// TierCredentialsStatus records the credentials last applied to the tier.
type TierCredentialsStatus struct {
	// SecretName is the name of the Secret the credentials came from.
	SecretName string `json:"secretName,omitempty"`

	// SecretResourceVersion is the Secret's resourceVersion when applied.
	SecretResourceVersion string `json:"secretResourceVersion,omitempty"`

	// AccessKeyHash is a SHA-256 hash of the applied access key.
	AccessKeyHash string `json:"accessKeyHash,omitempty"`
}

// TierObservation is the observed state of a RustFS tier. It never holds a
// secret value.
type TierObservation struct {
	// Type of the live tier.
	Type TierType `json:"type,omitempty"`

	// Endpoint of the live tier.
	Endpoint string `json:"endpoint,omitempty"`

	// Bucket of the live tier.
	Bucket string `json:"bucket,omitempty"`

	// Prefix of the live tier.
	Prefix string `json:"prefix,omitempty"`

	// Region of the live tier.
	Region string `json:"region,omitempty"`

	// StorageClass of the live tier (S3 type only).
	StorageClass string `json:"storageClass,omitempty"`

	// AccessKeyHash is a SHA-256 hash of the access key RustFS lists for
	// the tier; empty when RustFS lists it empty or redacted.
	AccessKeyHash string `json:"accessKeyHash,omitempty"`

	// Credentials last applied by the provider.
	Credentials *TierCredentialsStatus `json:"credentials,omitempty"`

	// Adopted is true when the tier existed before this resource and was
	// adopted rather than added.
	Adopted bool `json:"adopted,omitempty"`

	// Health records RustFS's last verify of the tier; the RemoteHealthy
	// condition reports its outcome.
	// +optional
	Health *TierHealth `json:"health,omitempty"`

	// Stats are the tier's statistics from RustFS's tier stats.
	// +optional
	Stats *TierStats `json:"stats,omitempty"`
}

// TierHealth records the provider's last verify of the tier. It lives in
// status so that a restarted provider does not verify every tier at once.
type TierHealth struct {
	// LastVerifiedAt is when the provider last asked RustFS to verify the
	// tier. The next verify is due one --tier-verify-interval later (plus a
	// per-Tier spread of up to a tenth of the interval).
	// +optional
	LastVerifiedAt *metav1.Time `json:"lastVerifiedAt,omitempty"`
}

// TierStats are the statistics RustFS reports for a tier
// (docs/rustfs-wire.md §1.6).
type TierStats struct {
	// Objects transitioned to the tier in the last 24 hours (this node's
	// rolling counters).
	Objects int64 `json:"objects"`

	// Bytes transitioned to the tier in the last 24 hours.
	Bytes int64 `json:"bytes"`

	// Versions transitioned to the tier in the last 24 hours.
	Versions int64 `json:"versions"`

	// Inventory is what the tier holds, when RustFS accounts for it (GA
	// with inventory status "accounted").
	// +optional
	Inventory *TierInventory `json:"inventory,omitempty"`

	// InventoryStatus is RustFS's inventory status: accounted,
	// not-accounted or unavailable (GA); empty when RustFS reports none
	// (rc).
	// +optional
	InventoryStatus string `json:"inventoryStatus,omitempty"`

	// ObservedAt is when the provider read the statistics.
	// +optional
	ObservedAt *metav1.Time `json:"observedAt,omitempty"`
}

// TierInventory is what a tier holds, as RustFS accounts for it.
type TierInventory struct {
	// Objects on the tier.
	Objects int64 `json:"objects"`
	// Bytes on the tier.
	Bytes int64 `json:"bytes"`
	// Versions on the tier.
	Versions int64 `json:"versions"`
}

// A TierSpec defines the desired state of a Tier.
// +kubebuilder:validation:XValidation:rule="!has(self.managementPolicies) || !self.managementPolicies.exists(p, p == 'Delete' || p == '*')",message="managementPolicies must not contain Delete or '*': tiers are Retain-only because RustFS refuses to remove a tier that objects still reference and transitioned objects live under the remote prefix; deleting the Tier leaves the RustFS tier in place"
type TierSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`
	ForProvider              TierParameters `json:"forProvider"`
}

// A TierStatus represents the observed state of a Tier.
type TierStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 TierObservation `json:"atProvider,omitempty"`

	// Custody is the provider's record of this resource's claim to its
	// RustFS object; see docs/multi-tenancy.md.
	// +optional
	Custody *Custody `json:"custody,omitempty"`
}

// +kubebuilder:object:root=true

// A Tier is a RustFS remote storage tier: objects transition to it through
// bucket lifecycle rules whose storage class is the tier's name.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="CONFLICT",type="string",JSONPath=".status.conditions[?(@.type=='TierConflict')].status"
// +kubebuilder:printcolumn:name="TIER",type="string",JSONPath=".spec.forProvider.name"
// +kubebuilder:printcolumn:name="TYPE",type="string",JSONPath=".spec.forProvider.type"
// +kubebuilder:printcolumn:name="HEALTHY",type="string",JSONPath=".status.conditions[?(@.type=='RemoteHealthy')].status"
// +kubebuilder:printcolumn:name="BYTES",type="integer",JSONPath=".status.atProvider.stats.bytes"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,rustfs}
type Tier struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   TierSpec   `json:"spec"`
	Status TierStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// TierList contains a list of Tier.
type TierList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Tier `json:"items"`
}
