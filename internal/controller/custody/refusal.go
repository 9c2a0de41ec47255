package custody

import (
	"fmt"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func adoptionRefusal(c Claim) *Refusal {
	return &Refusal{Reason: v1alpha1.ReasonAdoptionNotAllowed, Message: fmt.Sprintf("%s already exists in RustFS, and this "+
		"%s has no record of having created or adopted it; its ProviderConfig sets adoption: Never, so nothing is written. "+
		"Change %s to a new name, or ask the platform team to allow adoption.", c.Noun, c.Kind, c.Field)}
}

func disputedRefusal(c Claim) *Refusal {
	return &Refusal{Reason: v1alpha1.ReasonCustodyDisputed, Message: fmt.Sprintf("Resources of two namespaces claimed %s "+
		"before the upgrade to custody records, so no resource may write it until the platform team edits or deletes its "+
		"custody record (docs/multi-tenancy.md, \"Upgrading from v0.2\").", c.Noun)}
}

// duplicateRefusal names the holder only when it is in self's namespace.
func duplicateRefusal(r *v1alpha1.CustodyRecord, self Subject, c Claim) *Refusal {
	msg := fmt.Sprintf("A resource in another namespace already manages %s on this RustFS (it holds its custody record), "+
		"so this %s writes nothing. Change %s to a name of your own.", c.Noun, c.Kind, c.Field)
	if h := r.Spec.Holder; h != nil && h.Namespace == self.GetNamespace() {
		msg = fmt.Sprintf("%s %s already manages %s on this RustFS (it holds its custody record), so this %s writes nothing. "+
			"Delete this %s, or change %s.", c.Kind, h.Name, c.Noun, c.Kind, c.Kind, c.Field)
	} else if h == nil && r.Spec.ReleasedFor == self.GetNamespace() {
		msg = fmt.Sprintf("%s on this RustFS is held by no resource yet; this %s may claim it. Reconcile it again.", c.Noun, c.Kind)
	}
	return &Refusal{Reason: c.Duplicate, Message: msg}
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
