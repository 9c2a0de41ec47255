package custody

import (
	"context"
	"strings"
	"time"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// A Claim is what a resource asks to hold: the record of one RustFS object.
type Claim struct {
	// Kind of the record, which is also the kind of the resource.
	Kind v1alpha1.CustodyKind
	// Object is the RustFS name.
	Object string
	// Exists is whether the object exists in RustFS now.
	Exists bool
	// Adoption is the resource's ProviderConfig's policy.
	Adoption v1alpha1.AdoptionPolicy
	// Prefix is set when the resource's ProviderConfig has nameScope
	// NamespacePrefix and the Gate admitted the name: it is in the slice of
	// the resource's namespace, which a longer namespace takes from a
	// shorter one.
	Prefix bool
	// Noun names the object in messages, Field what the resource's author
	// changes to name another, Duplicate the reason of a non-holder.
	Noun, Field string
	Duplicate   xpv2.ConditionReason
}

// A Custodian decides, through custody records, whether a resource may
// write the RustFS object it names (docs/multi-tenancy.md, rules 1–7).
type Custodian struct {
	Store
	Identify Identify
	Now      func() time.Time
}

// Admit runs after a read of RustFS through conn with self's own
// credentials succeeded: it holds c's record for self (Hold), then sets the
// proof and the record's phase in status.custody, a display copy that no
// decision reads, in memory: the managed reconciler's status update at the
// end of the pass stores it. A pass that creates loses it to the managed
// reconciler's annotation updates, and the observe that follows stores it,
// which saves a write of the resource per new object. It returns the record
// self holds, or why it may not write.
func (cu Custodian) Admit(ctx context.Context, self Subject, conn *connection.Connection, c Claim) (*v1alpha1.CustodyRecord, *Refusal, error) {
	p, err := cu.Identify.Proof(ctx, conn, c.Object)
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot identify the RustFS deployment")
	}
	c.Prefix = conn.Target.Tenancy.NameScope == v1alpha1.NameScopeNamespacePrefix
	r, refusal, err := cu.Hold(ctx, self, p.Identity, c)
	if err != nil {
		return nil, nil, err
	}
	was := Record(self)
	rec := Prove(was, p, cu.Now())
	rec.Eligible, rec.Acquired, rec.Record = refusal == nil, phaseShown(r), ""
	if r != nil {
		rec.Record = r.GetName()
	}
	self.SetCustody(&rec)
	return r, refusal, nil
}

// phaseShown is the display of r's phase in status.custody.
func phaseShown(r *v1alpha1.CustodyRecord) v1alpha1.Acquisition {
	if r == nil {
		return ""
	}
	switch r.Spec.Phase {
	case v1alpha1.PhaseCreating, v1alpha1.PhaseCreated, v1alpha1.PhaseAdopted:
		return v1alpha1.Acquisition(r.Spec.Phase)
	}
	return ""
}

// Hold makes self the holder of c's record on identity if no one holds it
// (an atomic create, rule 3), or a Released record is kept for self's
// namespace, or its holder in self's namespace is gone; it never takes a
// record from a holder that exists (rule 4). It settles the phase as the
// object's existence says (rule 5). It returns the record self holds, or
// why it may not write.
func (cu Custodian) Hold(ctx context.Context, self Subject, identity string, c Claim) (*v1alpha1.CustodyRecord, *Refusal, error) {
	name := v1alpha1.CustodyRecordName(identity, c.Kind, c.Object)
	if r := cu.settled(ctx, self, name, c); r != nil {
		return r, nil, nil
	}
	for range 5 {
		r, refusal, err := cu.try(ctx, self, identity, name, c)
		if kerrors.IsAlreadyExists(errors.Cause(err)) || kerrors.IsConflict(errors.Cause(err)) {
			continue
		}
		return r, refusal, err
	}
	return nil, nil, errors.Errorf("custody record %s keeps changing; nothing is written, and the next reconcile reads it again", name)
}

// settled returns record name as the cache holds it when it names self as
// holder in a phase c leaves as it is, and nil otherwise: a poll then reads
// no record from the API server. A pass that writes re-reads it there first
// (Confirm), or updates it only if unchanged since this read (Mark), so a
// stale cache cannot let a write through (rule 2).
func (cu Custodian) settled(ctx context.Context, self Subject, name string, c Claim) *v1alpha1.CustodyRecord {
	r := &v1alpha1.CustodyRecord{}
	if cu.Kube.Get(ctx, types.NamespacedName{Name: name}, r) != nil || !Holds(r, self) {
		return nil
	}
	if next, refusal, _ := settle(r, c); next != nil || refusal != nil {
		return nil
	}
	return r
}

// try is one attempt of Hold: it fails with AlreadyExists or Conflict when
// the record changed since it was read.
func (cu Custodian) try(ctx context.Context, self Subject, identity, name string, c Claim) (*v1alpha1.CustodyRecord, *Refusal, error) {
	r, err := cu.Get(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	if r == nil {
		return cu.create(ctx, self, identity, name, c)
	}
	gone, err := cu.gone(ctx, r, self, c.Kind)
	if err != nil {
		return nil, nil, err
	}
	next, refusal, release := Next(r, self, c, gone)
	switch {
	case refusal != nil && release:
		return nil, refusal, cu.release(ctx, r)
	case refusal != nil:
		return nil, refusal, nil
	case next == nil:
		return r, nil, nil
	}
	return next, nil, cu.Update(ctx, next)
}

// create claims the absent record name for self. Under adoption Never an
// object that already exists is not claimed at all.
func (cu Custodian) create(ctx context.Context, self Subject, identity, name string, c Claim) (*v1alpha1.CustodyRecord, *Refusal, error) {
	if c.Exists && c.Adoption == v1alpha1.AdoptionNever {
		return nil, adoptionRefusal(c), nil
	}
	r := &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1alpha1.CustodyRecordSpec{
		Identity: identity, Kind: c.Kind, Object: c.Object, Holder: HolderOf(self)}}
	if c.Exists {
		r.Spec.Phase = v1alpha1.PhaseAdopted
	}
	return r, nil, cu.Create(ctx, r)
}

// release gives up r, which self made but may not use, as Released for
// self's namespace: the provider's RBAC from Crossplane has no delete.
func (cu Custodian) release(ctx context.Context, r *v1alpha1.CustodyRecord) error {
	r = r.DeepCopy()
	r.Spec.ReleasedFor, r.Spec.Holder, r.Spec.Phase = r.Spec.Holder.Namespace, nil, v1alpha1.PhaseReleased
	err := cu.Update(ctx, r)
	if kerrors.IsConflict(errors.Cause(err)) {
		return nil
	}
	return err
}

// gone reports whether r's holder is in self's namespace and no longer
// exists (or is another resource of the same name): only then may a
// resource of that namespace take the record without a handover.
func (cu Custodian) gone(ctx context.Context, r *v1alpha1.CustodyRecord, self Subject, kind v1alpha1.CustodyKind) (bool, error) {
	h := r.Spec.Holder
	if h == nil || h.Namespace != self.GetNamespace() || h.UID == self.GetUID() {
		return false, nil
	}
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(v1alpha1.SchemeGroupVersion.WithKind(string(kind)))
	err := cu.Reader.Get(ctx, types.NamespacedName{Namespace: h.Namespace, Name: h.Name}, m)
	if kerrors.IsNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, errors.Wrap(err, "cannot read the holder of a custody record")
	}
	return m.GetUID() != h.UID, nil
}

// Next decides what self's claim c makes of record r, where gone says
// whether r's holder in self's namespace no longer exists. A name of a
// namespace's slice under NamespacePrefix passes from a shorter namespace
// to the longer one that now owns it. It returns the
// record to write (nil when r stays as it is), or a refusal, and whether
// self must release r, which it holds but may not use (adoption Never).
func Next(r *v1alpha1.CustodyRecord, self Subject, c Claim, gone bool) (*v1alpha1.CustodyRecord, *Refusal, bool) {
	ns := self.GetNamespace()
	switch {
	case Holds(r, self):
		return settle(r, c)
	case r.Spec.Phase == v1alpha1.PhaseDisputed:
		return nil, disputedRefusal(c), false
	case r.Spec.Holder == nil && r.Spec.Phase == v1alpha1.PhaseReleased && r.Spec.ReleasedFor == ns, gone,
		c.Prefix && strings.HasPrefix(ns, HolderNamespace(r)+"-"):
		next := r.DeepCopy()
		next.Spec.Holder, next.Spec.ReleasedFor = HolderOf(self), ""
		next.Spec.Phase = takenPhase(r.Spec.Phase, c.Exists)
		return next, nil, false
	}
	return nil, duplicateRefusal(r, self, c), false
}

// settle is Next for the holder: Creating becomes Created once the object
// exists; an object found with no phase of self's making is Adopted, or,
// under adoption Never, refused and the record released for self's
// namespace.
func settle(r *v1alpha1.CustodyRecord, c Claim) (*v1alpha1.CustodyRecord, *Refusal, bool) {
	if !c.Exists {
		return nil, nil, false
	}
	next := r.DeepCopy()
	switch r.Spec.Phase {
	case v1alpha1.PhaseCreating:
		next.Spec.Phase = v1alpha1.PhaseCreated
	case "":
		if c.Adoption == v1alpha1.AdoptionNever {
			return nil, adoptionRefusal(c), true
		}
		next.Spec.Phase = v1alpha1.PhaseAdopted
	default:
		return nil, nil, false
	}
	return next, nil, false
}

// takenPhase is the phase of a record taken over within a namespace.
func takenPhase(was v1alpha1.CustodyPhase, exists bool) v1alpha1.CustodyPhase {
	switch {
	case !exists:
		return ""
	case was == v1alpha1.PhaseCreated || was == v1alpha1.PhaseAdopted:
		return was
	}
	return v1alpha1.PhaseAdopted
}

// Confirm re-reads the record self held at Observe, just before a write
// (rule 2), and returns it; an error when it no longer names self.
func (cu Custodian) Confirm(ctx context.Context, r *v1alpha1.CustodyRecord, self client.Object) (*v1alpha1.CustodyRecord, error) {
	if r == nil {
		return nil, errors.New("this resource holds no custody record; nothing is written")
	}
	fresh, err := cu.Get(ctx, r.GetName())
	if err != nil {
		return nil, err
	}
	if !Holds(fresh, self) {
		return nil, errors.Errorf("custody record %s no longer names this resource; nothing is written, and the next reconcile reports who holds it", r.GetName())
	}
	return fresh, nil
}

// Mark sets the phase of r, which self held when it was read, to p:
// Creating before a create, Created after it (rule 5). The update is
// conditional on the resourceVersion r was read with, so it fails with
// Conflict, and nothing is written to RustFS, when the record changed
// since: a write needs no read before it. A record already in phase p is
// confirmed instead (Confirm). It returns the record written.
func (cu Custodian) Mark(ctx context.Context, r *v1alpha1.CustodyRecord, self client.Object, p v1alpha1.CustodyPhase) (*v1alpha1.CustodyRecord, error) {
	if r == nil || r.Spec.Phase == p {
		return cu.Confirm(ctx, r, self)
	}
	if !Holds(r, self) {
		return nil, errors.Errorf("custody record %s does not name this resource; nothing is written", r.GetName())
	}
	next := r.DeepCopy()
	next.Spec.Phase = p
	return next, cu.Update(ctx, next)
}

// HeldIn reports whether the record of object of kind on identity is held
// by a resource of namespace ns, and whether there is a record at all.
func (cu Custodian) HeldIn(ctx context.Context, identity string, kind v1alpha1.CustodyKind, object, ns string) (held, recorded bool, err error) {
	r, err := cu.Get(ctx, v1alpha1.CustodyRecordName(identity, kind, object))
	if err != nil || r == nil {
		return false, false, err
	}
	return r.Spec.Holder != nil && r.Spec.Holder.Namespace == ns, true, nil
}
