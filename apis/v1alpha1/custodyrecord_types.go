package v1alpha1

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// A CustodyKind is the kind of RustFS object a CustodyRecord is about.
// +kubebuilder:validation:Enum=Tier;Bucket;BucketLifecycle;ServiceAccount;Upgrade
type CustodyKind string

// Custody kinds. Tier, Bucket and BucketLifecycle records are held by a
// resource of that kind; ServiceAccount records are key records (the
// buckets a key may reach); Upgrade marks the upgrade from v0.2 as done.
const (
	CustodyTier            CustodyKind = "Tier"
	CustodyBucket          CustodyKind = "Bucket"
	CustodyBucketLifecycle CustodyKind = "BucketLifecycle"
	CustodyServiceAccount  CustodyKind = "ServiceAccount"
	CustodyUpgrade         CustodyKind = "Upgrade"
)

// A CustodyPhase says where the holder is with its object.
// +kubebuilder:validation:Enum=Creating;Created;Adopted;Released;Disputed
type CustodyPhase string

// Custody phases. Creating is written before a create, Created after it;
// a later read that finds the object settles Creating as Created. Released
// has no holder: only ReleasedFor may claim it. Disputed has no holder and
// no one may claim it until the platform edits or deletes the record.
const (
	PhaseCreating CustodyPhase = "Creating"
	PhaseCreated  CustodyPhase = "Created"
	PhaseAdopted  CustodyPhase = "Adopted"
	PhaseReleased CustodyPhase = "Released"
	PhaseDisputed CustodyPhase = "Disputed"
)

// A CustodyHolder is the managed resource that holds a record.
type CustodyHolder struct {
	Namespace string    `json:"namespace"`
	Name      string    `json:"name"`
	UID       types.UID `json:"uid"`
}

// CustodyRecordSpec is what the provider decided about one RustFS object.
type CustodyRecordSpec struct {
	// Identity of the RustFS deployment (docs/multi-tenancy.md, rule 4).
	Identity string `json:"identity"`

	// Kind of the object.
	Kind CustodyKind `json:"kind"`

	// Object names it: the tier name, the bucket, or the service account's
	// access key.
	Object string `json:"object"`

	// Holder is the resource that may write the object; none while the
	// record is Released or Disputed.
	// +optional
	Holder *CustodyHolder `json:"holder,omitempty"`

	// Phase of the holder with the object.
	// +optional
	Phase CustodyPhase `json:"phase,omitempty"`

	// ReleasedFor is the only namespace that may claim a Released record.
	// +optional
	ReleasedFor string `json:"releasedFor,omitempty"`

	// Buckets a ServiceAccount record's key may reach, written before the
	// key is created or widened.
	// +listType=set
	// +optional
	Buckets []string `json:"buckets,omitempty"`
}

// A CustodyRecord says which managed resource may write one RustFS object.
// Only the provider writes records; tenants get no access to them.
// +kubebuilder:object:root=true
// +kubebuilder:printcolumn:name="KIND",type="string",JSONPath=".spec.kind"
// +kubebuilder:printcolumn:name="OBJECT",type="string",JSONPath=".spec.object"
// +kubebuilder:printcolumn:name="HOLDER-NAMESPACE",type="string",JSONPath=".spec.holder.namespace"
// +kubebuilder:printcolumn:name="HOLDER",type="string",JSONPath=".spec.holder.name"
// +kubebuilder:printcolumn:name="PHASE",type="string",JSONPath=".spec.phase"
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:resource:scope=Cluster,categories={rustfs}
type CustodyRecord struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec CustodyRecordSpec `json:"spec"`
}

// +kubebuilder:object:root=true

// CustodyRecordList contains a list of CustodyRecord.
type CustodyRecordList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CustodyRecord `json:"items"`
}

// CustodyRecord type metadata.
var (
	CustodyRecordKind             = reflect.TypeFor[CustodyRecord]().Name()
	CustodyRecordGroupVersionKind = SchemeGroupVersion.WithKind(CustodyRecordKind)
	CustodyRecordGroupResource    = schema.GroupResource{Group: Group, Resource: "custodyrecords"}
)

// Labels of a CustodyRecord, for lists and watches.
const (
	// LabelCustodyIdentity is a hash of the record's identity.
	LabelCustodyIdentity = Group + "/identity"
	// LabelCustodyHolderNamespace is the holder's namespace, or the
	// namespace a Released record is kept for.
	LabelCustodyHolderNamespace = Group + "/holder-namespace"
)

// CustodyRecordName is the name of the record of object of kind on the
// RustFS deployment identity: the kind in lower case and a hash.
func CustodyRecordName(identity string, kind CustodyKind, object string) string {
	h := sha256.Sum256([]byte(identity + "\x00" + string(kind) + "\x00" + object))
	return strings.ToLower(string(kind)) + "-" + hex.EncodeToString(h[:16])
}

// CustodyIdentityLabel is the LabelCustodyIdentity value of identity.
func CustodyIdentityLabel(identity string) string {
	h := sha256.Sum256([]byte(identity))
	return hex.EncodeToString(h[:16])
}

func init() {
	SchemeBuilder.Register(&CustodyRecord{}, &CustodyRecordList{})
}
