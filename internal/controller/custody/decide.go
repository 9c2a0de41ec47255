package custody

import (
	"fmt"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// An Object is the RustFS object a resource writes, as its kind describes
// it for a decision.
type Object struct {
	// Kind of the resource, for messages: Tier, Bucket or BucketLifecycle.
	Kind string

	// Noun names the object in messages, for example `tier "COLD"`.
	Noun string

	// Field is what the resource's author changes to name another object,
	// for example "spec.forProvider.name".
	Field string

	// Exists is whether the object exists in RustFS now.
	Exists bool

	// Duplicate is the kind's reason for a resource that is not the owner.
	Duplicate xpv2.ConditionReason
}

// A Refusal is why a resource writes nothing to RustFS. Its message says
// what to change, and names a resource of another namespace only as "a
// resource in another namespace".
type Refusal struct {
	Reason  xpv2.ConditionReason
	Message string
	// Cause is the error that led to the refusal, if any (an invalid
	// namespace selector).
	Cause error
}

func (r *Refusal) Error() string { return r.Message }

// Unwrap returns the cause of the refusal.
func (r *Refusal) Unwrap() error { return r.Cause }

// A Verdict is what Decide allows.
type Verdict struct {
	// Record is the resource's custody record after the decision, to Save.
	Record v1alpha1.Custody

	// Refusal is why the resource writes nothing; nil when it may write.
	Refusal *Refusal

	// Adopt is set when the resource takes over an object that exists and
	// that it holds no record of; Record then says Adopted.
	Adopt bool
}

// Decide decides, after a read of RustFS with self's own credentials made
// rec (see Prove), whether self may write its object o, in this order:
// refusal, the kind's own reason it may not (nil if none); the adoption
// policy; then ownership among self and peers, the resources that name the
// same object, from the cache. The record says whether self is eligible,
// which is what peers' decisions read.
//
// An intent to create (Acquired Creating, see Intend) is settled first
// (resolve); a refusal drops it, and so does a peer's record of the object.
func Decide(self Subject, rec v1alpha1.Custody, o Object, adoption v1alpha1.AdoptionPolicy, refusal *Refusal, peers []Subject) Verdict {
	rec, intent := resolve(self, rec, o, peers)
	rec.Eligible = refusal == nil && (!o.Exists || rec.Acquired != "" || adoption != v1alpha1.AdoptionNever)
	v := Verdict{Record: rec, Refusal: refuse(self, rec, o, refusal, peers)}
	switch {
	case v.Refusal != nil && intent:
		v.Record.Acquired = ""
	case v.Refusal == nil && o.Exists && rec.Acquired == "":
		v.Record.Acquired, v.Adopt = v1alpha1.AcquiredAdopted, true
	}
	return v
}

// refuse returns why self, with record rec, may not write o: the kind's
// refusal, the adoption policy, or another owner; nil when it may.
func refuse(self Subject, rec v1alpha1.Custody, o Object, refusal *Refusal, peers []Subject) *Refusal {
	switch {
	case refusal != nil:
		return refusal
	case !rec.Eligible:
		return &Refusal{Reason: v1alpha1.ReasonAdoptionNotAllowed, Message: adoptionMessage(o)}
	}
	if owner := Elect(self, rec, peers); owner != nil && owner.GetUID() != self.GetUID() {
		return &Refusal{Reason: o.Duplicate, Message: duplicateMessage(self, owner, o)}
	}
	return nil
}

func adoptionMessage(o Object) string {
	return fmt.Sprintf("%s already exists in RustFS, and this %s has no record of having created or adopted it; its "+
		"ProviderConfig sets adoption: Never, so nothing is written. Change %s to a new name, or ask the platform team "+
		"to allow adoption.", o.Noun, o.Kind, o.Field)
}

// duplicateMessage names the owner only when it is in self's namespace.
func duplicateMessage(self, owner Subject, o Object) string {
	if owner.GetNamespace() != self.GetNamespace() {
		return fmt.Sprintf("A resource in another namespace already manages %s on this RustFS, so this %s writes nothing. "+
			"Change %s to a name of your own.", o.Noun, o.Kind, o.Field)
	}
	return fmt.Sprintf("%s %s already manages %s on this RustFS (the oldest eligible resource with proven access owns it), "+
		"so this %s writes nothing. Delete this %s, or change %s.", o.Kind, owner.GetName(), o.Noun, o.Kind, o.Kind, o.Field)
}
