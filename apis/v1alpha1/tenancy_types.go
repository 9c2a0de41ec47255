package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A NameScope says which RustFS names the managed resources of a namespace
// may use through a ProviderConfig.
// +kubebuilder:validation:Enum=Cluster;NamespacePrefix
type NameScope string

// Name scopes.
const (
	// NameScopeCluster lets every namespace use any name.
	NameScopeCluster NameScope = "Cluster"

	// NameScopeNamespacePrefix gives each namespace a slice of the names:
	// bucket names that start with "<namespace>-" and tier names that start
	// with "<NAMESPACE>-" (upper-cased).
	NameScopeNamespacePrefix NameScope = "NamespacePrefix"
)

// An AdoptionPolicy says whether a managed resource may take over a RustFS
// object that already exists.
// +kubebuilder:validation:Enum=Automatic;Never
type AdoptionPolicy string

// Adoption policies.
const (
	// AdoptionAutomatic adopts an existing object, as the RustFS operator
	// does.
	AdoptionAutomatic AdoptionPolicy = "Automatic"

	// AdoptionNever writes only to objects the resource created or adopted
	// before the policy was set.
	AdoptionNever AdoptionPolicy = "Never"
)

// TenancySettings say what the managed resources that use a ProviderConfig
// may name and take over. Both ProviderConfig kinds have them.
type TenancySettings struct {
	// NameScope is Cluster (any name) or NamespacePrefix: bucket names must
	// start with "<namespace>-" and tier names with "<NAMESPACE>-"
	// (upper-cased), and a lifecycle transition must name a tier of the
	// namespace's slice or one of sharedTiers. Where namespace names prefix
	// each other, a name belongs to the longest matching prefix among the
	// namespaces that exist ("team-a-data" is team-a's, not team's).
	// +kubebuilder:default=Cluster
	// +optional
	NameScope NameScope `json:"nameScope,omitempty"`

	// SharedTiers are tiers, run by the platform, that a lifecycle
	// transition of any namespace may name, under either name scope;
	// otherwise a transition may name only tiers a Tier of its own
	// namespace holds. They grant no right to manage the tier itself.
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=64
	// +kubebuilder:validation:items:Pattern=`^[A-Z0-9_.-]+$`
	// +optional
	SharedTiers []string `json:"sharedTiers,omitempty"`

	// Adoption is Automatic (take over an existing tier, bucket or
	// lifecycle configuration) or Never (write only to objects this
	// resource created, or adopted before the policy was set).
	// +kubebuilder:default=Automatic
	// +optional
	Adoption AdoptionPolicy `json:"adoption,omitempty"`
}

// An Acquisition says how a managed resource came to manage its RustFS
// object, or that it is about to create it.
// +kubebuilder:validation:Enum=Creating;Created;Adopted
type Acquisition string

// Acquisitions. Creating is an intent: the provider saw the object absent
// and is about to create it; it becomes Created when the next read finds
// the object, and is dropped otherwise (package custody).
const (
	AcquiredCreating Acquisition = "Creating"
	AcquiredCreated  Acquisition = "Created"
	AcquiredAdopted  Acquisition = "Adopted"
)

// A Custody is the provider's record of a managed resource's claim to one
// RustFS object (a tier name, a bucket, or a bucket's lifecycle
// configuration) on one RustFS deployment. Only the provider writes it,
// through the status subresource; the owner of an object is the oldest
// resource whose record makes it a candidate.
type Custody struct {
	// Identity of the RustFS deployment the resource's ProviderConfig
	// reaches: "deployment:<id>" from RustFS's admin info, or
	// "endpoint:<normalised URL>" when RustFS refuses that call.
	// +optional
	Identity string `json:"identity,omitempty"`

	// Object is the RustFS object the record is about: the tier name, or
	// the bucket.
	// +optional
	Object string `json:"object,omitempty"`

	// Config is the kind of ProviderConfig through which access was
	// proven. Resources proven through a ClusterProviderConfig own before
	// those proven through a namespaced ProviderConfig, whose RustFS (and
	// the deployment ID it reports) a namespace chooses itself.
	// +kubebuilder:validation:Enum=ClusterProviderConfig;ProviderConfig
	// +optional
	Config string `json:"config,omitempty"`

	// Endpoint is the normalised endpoint through which access was proven.
	// Two resources proven through namespaced ProviderConfigs compete for
	// an object only when their endpoints, not only their identities, are
	// equal.
	// +optional
	Endpoint string `json:"endpoint,omitempty"`

	// AccessProvenAt is when a read of RustFS with the resource's own
	// ProviderConfig credentials first succeeded on Identity. A resource
	// without proven access never owns an object.
	// +optional
	AccessProvenAt *metav1.Time `json:"accessProvenAt,omitempty"`

	// Eligible is true while the tenancy rules let the resource write
	// Object: its namespace may use the ProviderConfig, the name is in its
	// slice, its bucket is managed in its own namespace (BucketLifecycle),
	// and adoption allows it.
	// +optional
	Eligible bool `json:"eligible,omitempty"`

	// Acquired is how the resource came to manage Object on Identity:
	// Created or Adopted; Creating while a create the provider is about to
	// send (or sent without an answer) is not yet confirmed by a read. With
	// adoption Never, only a resource holding this record writes to an
	// object that already exists.
	// +optional
	Acquired Acquisition `json:"acquired,omitempty"`

	// Record is the name of the cluster-scoped CustodyRecord the resource
	// holds. This status is a display copy: no decision reads it.
	// +optional
	Record string `json:"record,omitempty"`
}

// GetCustody returns the Tier's custody record, or nil.
func (t *Tier) GetCustody() *Custody { return t.Status.Custody }

// SetCustody sets the Tier's custody record.
func (t *Tier) SetCustody(c *Custody) { t.Status.Custody = c }

// GetCustody returns the Bucket's custody record, or nil.
func (b *Bucket) GetCustody() *Custody { return b.Status.Custody }

// SetCustody sets the Bucket's custody record.
func (b *Bucket) SetCustody(c *Custody) { b.Status.Custody = c }

// GetCustody returns the BucketLifecycle's custody record, or nil.
func (l *BucketLifecycle) GetCustody() *Custody { return l.Status.Custody }

// SetCustody sets the BucketLifecycle's custody record.
func (l *BucketLifecycle) SetCustody(c *Custody) { l.Status.Custody = c }
