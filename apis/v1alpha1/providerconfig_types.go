package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// Credential keys used when a ProviderConfig does not name them.
const (
	DefaultAccessKeyKey = "accesskey"
	DefaultSecretKeyKey = "secretkey"
)

// EndpointSettings hold the RustFS address shared by both ProviderConfig kinds.
type EndpointSettings struct {
	// Endpoint is the base URL of the RustFS S3 and admin API, for example
	// https://rustfs.storage.svc:9000.
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="isURL(self) && url(self).getScheme() in ['http', 'https'] && size(url(self).getHostname()) > 0",message="endpoint must be an http:// or https:// URL with a host, for example https://rustfs.storage.svc:9000"
	// +kubebuilder:validation:XValidation:rule="!self.contains('@') && !self.contains('?') && !self.contains('#')",message="endpoint must not contain user info (user:password@), a query or a fragment: put the credentials in the Secret and give only http(s)://host[:port]",reason=FieldValueForbidden
	Endpoint string `json:"endpoint"`

	// Region is the SigV4 signing region.
	// +kubebuilder:default=us-east-1
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Region string `json:"region,omitempty"`
}

// CredentialKeys names the keys of the credentials Secret.
type CredentialKeys struct {
	// AccessKeyKey is the Secret key holding the access key.
	// +kubebuilder:default=accesskey
	// +kubebuilder:validation:MinLength=1
	// +optional
	AccessKeyKey string `json:"accessKeyKey,omitempty"`

	// SecretKeyKey is the Secret key holding the secret key.
	// +kubebuilder:default=secretkey
	// +kubebuilder:validation:MinLength=1
	// +optional
	SecretKeyKey string `json:"secretKeyKey,omitempty"`
}

// ClusterCredentials locate the RustFS admin credentials of a
// ClusterProviderConfig.
type ClusterCredentials struct {
	// Source of the credentials. Only Secret is supported.
	// +kubebuilder:validation:Enum=Secret
	// +kubebuilder:default=Secret
	Source xpv2.CredentialsSource `json:"source"`

	// SecretRef names the Secret holding the access and secret keys.
	SecretRef xpv2.SecretReference `json:"secretRef"`

	CredentialKeys `json:",inline"`
}

// LocalCredentials locate the RustFS admin credentials of a ProviderConfig.
// The Secret is always read from the ProviderConfig's own namespace.
type LocalCredentials struct {
	// Source of the credentials. Only Secret is supported.
	// +kubebuilder:validation:Enum=Secret
	// +kubebuilder:default=Secret
	Source xpv2.CredentialsSource `json:"source"`

	// SecretRef names the Secret, in the ProviderConfig's namespace, holding
	// the access and secret keys.
	SecretRef xpv2.LocalSecretReference `json:"secretRef"`

	CredentialKeys `json:",inline"`
}

// ClusterTLS configures TLS for a ClusterProviderConfig.
type ClusterTLS struct {
	// CABundleSecretRef selects a Secret key holding PEM CA certificates
	// that RustFS's serving certificate must chain to.
	// +optional
	CABundleSecretRef *xpv2.SecretKeySelector `json:"caBundleSecretRef,omitempty"`

	// InsecureSkipVerify disables verification of RustFS's certificate.
	// Use only for testing.
	// +optional
	InsecureSkipVerify bool `json:"insecureSkipVerify,omitempty"`
}

// LocalTLS configures TLS for a ProviderConfig. The CA bundle Secret is
// read from the ProviderConfig's own namespace.
type LocalTLS struct {
	// CABundleSecretRef selects a Secret key holding PEM CA certificates
	// that RustFS's serving certificate must chain to.
	// +optional
	CABundleSecretRef *xpv2.LocalSecretKeySelector `json:"caBundleSecretRef,omitempty"`

	// InsecureSkipVerify disables verification of RustFS's certificate.
	// Use only for testing.
	// +optional
	InsecureSkipVerify bool `json:"insecureSkipVerify,omitempty"`
}

// A ClusterProviderConfigSpec configures access to one RustFS endpoint.
type ClusterProviderConfigSpec struct {
	EndpointSettings `json:",inline"`

	// NamespaceSelector selects the namespaces whose managed resources may
	// use this ClusterProviderConfig, by their labels. Absent, every
	// namespace may. A resource in another namespace is refused with reason
	// ProviderConfigNotAllowed before any Secret is read or any request is
	// sent.
	// +kubebuilder:validation:XValidation:rule="!has(self.matchExpressions) || self.matchExpressions.all(e, e.operator in ['In', 'NotIn', 'Exists', 'DoesNotExist'])",message="namespaceSelector.matchExpressions[].operator must be In, NotIn, Exists or DoesNotExist"
	// +kubebuilder:validation:XValidation:rule="!has(self.matchExpressions) || self.matchExpressions.all(e, (e.operator in ['In', 'NotIn']) == (has(e.values) && size(e.values) > 0))",message="namespaceSelector.matchExpressions[].values must be non-empty for In and NotIn, and empty for Exists and DoesNotExist"
	// +optional
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty"`

	TenancySettings `json:",inline"`

	// Credentials of a RustFS user allowed to manage tiers, buckets and
	// lifecycle configurations.
	Credentials ClusterCredentials `json:"credentials"`

	// TLS settings for https endpoints.
	// +optional
	TLS *ClusterTLS `json:"tls,omitempty"`
}

// A ProviderConfigSpec configures access to one RustFS endpoint for the
// managed resources of one namespace.
type ProviderConfigSpec struct {
	EndpointSettings `json:",inline"`

	TenancySettings `json:",inline"`

	// Credentials of a RustFS user allowed to manage tiers, buckets and
	// lifecycle configurations.
	Credentials LocalCredentials `json:"credentials"`

	// TLS settings for https endpoints.
	// +optional
	TLS *LocalTLS `json:"tls,omitempty"`
}

// A ProviderConfigStatus reflects the observed state of a ProviderConfig.
type ProviderConfigStatus struct {
	xpv2.ProviderConfigStatus `json:",inline"`
}

// +kubebuilder:object:root=true

// A ProviderConfig configures how managed resources in its namespace reach
// a RustFS endpoint.
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="ENDPOINT",type="string",JSONPath=".spec.endpoint"
// +kubebuilder:printcolumn:name="USERS",type="integer",JSONPath=".status.users"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:printcolumn:name="SECRET-NAME",type="string",JSONPath=".spec.credentials.secretRef.name",priority=1
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,provider,rustfs}
type ProviderConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ProviderConfigSpec   `json:"spec"`
	Status ProviderConfigStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ProviderConfigList contains a list of ProviderConfig.
type ProviderConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProviderConfig `json:"items"`
}

// +kubebuilder:object:root=true

// A ClusterProviderConfig configures how managed resources in any namespace
// reach a RustFS endpoint.
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="ENDPOINT",type="string",JSONPath=".spec.endpoint"
// +kubebuilder:printcolumn:name="USERS",type="integer",JSONPath=".status.users"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:printcolumn:name="SECRET-NAME",type="string",JSONPath=".spec.credentials.secretRef.name",priority=1
// +kubebuilder:resource:scope=Cluster,categories={crossplane,provider,rustfs}
type ClusterProviderConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ClusterProviderConfigSpec `json:"spec"`
	Status ProviderConfigStatus      `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ClusterProviderConfigList contains a list of ClusterProviderConfig.
type ClusterProviderConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterProviderConfig `json:"items"`
}

// +kubebuilder:object:root=true

// A ProviderConfigUsage records that a managed resource uses a
// ProviderConfig or a ClusterProviderConfig.
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:printcolumn:name="CONFIG-KIND",type="string",JSONPath=".providerConfigRef.kind"
// +kubebuilder:printcolumn:name="CONFIG-NAME",type="string",JSONPath=".providerConfigRef.name"
// +kubebuilder:printcolumn:name="RESOURCE-KIND",type="string",JSONPath=".resourceRef.kind"
// +kubebuilder:printcolumn:name="RESOURCE-NAME",type="string",JSONPath=".resourceRef.name"
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,provider,rustfs}
type ProviderConfigUsage struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	xpv2.TypedProviderConfigUsage `json:",inline"`
}

// +kubebuilder:object:root=true

// ProviderConfigUsageList contains a list of ProviderConfigUsage.
type ProviderConfigUsageList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProviderConfigUsage `json:"items"`
}
