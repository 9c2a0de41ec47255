package custody

import (
	"context"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Elect returns the owner of rec.Object on rec.Identity: the first
// candidate (see older) among self, whose record this reconcile has just
// made (rec), and peers, whose records are read as the cache holds them.
// peers may include self; that copy is ignored. It returns nil when there
// is no candidate.
func Elect(self Subject, rec v1alpha1.Custody, peers []Subject) Subject {
	var owner Subject
	var ownerRec *v1alpha1.Custody
	if candidate(self, &rec, &rec, rec.Object) {
		owner, ownerRec = self, &rec
	}
	for _, p := range peers {
		c := p.GetCustody()
		if p.GetUID() == self.GetUID() || !candidate(p, c, &rec, rec.Object) {
			continue
		}
		if owner == nil || older(p, c, owner, ownerRec) {
			owner, ownerRec = p, c
		}
	}
	return owner
}

// Oldest returns the owner of object among subjects, from their recorded
// custody, as a resource that proved p sees it; nil when none is a
// candidate.
func Oldest(p Proof, object string, subjects []Subject) Subject {
	view := &v1alpha1.Custody{Identity: p.Identity, Endpoint: p.Endpoint, Config: p.Config}
	var owner Subject
	for _, s := range subjects {
		if candidate(s, s.GetCustody(), view, object) && (owner == nil || older(s, s.GetCustody(), owner, owner.GetCustody())) {
			owner = s
		}
	}
	return owner
}

// candidate reports whether s, with record c, may own object as a resource
// with record view sees it: s is not being deleted, competes with view, has
// proven access and is eligible.
func candidate(s Subject, c, view *v1alpha1.Custody, object string) bool {
	return s.GetDeletionTimestamp() == nil && c != nil && competes(c, view) &&
		c.Object == object && c.AccessProvenAt != nil && c.Eligible
}

// competes reports whether records a and b are about the same RustFS: the
// same identity, and, when both were proven through namespaced
// ProviderConfigs, the same endpoint. A namespace's ProviderConfig may
// point at a server that reports another RustFS's deployment ID, so two
// namespaces' claims are taken on their word only where they reach the
// same endpoint; a platform's claim competes with every claim of its
// identity, and outranks them (older).
func competes(a, b *v1alpha1.Custody) bool {
	if a.Identity == "" || a.Identity != b.Identity {
		return false
	}
	return platform(a) || platform(b) || a.Endpoint == b.Endpoint
}

// older orders candidates a and b, with records ac and bc: those proven
// through a ClusterProviderConfig first, then by creation time, namespace
// and name. A namespaced ProviderConfig may point at a RustFS of the
// namespace's choosing that reports the platform's deployment ID, so its
// resources never outrank the platform's.
func older(a Subject, ac *v1alpha1.Custody, b Subject, bc *v1alpha1.Custody) bool {
	if pa, pb := platform(ac), platform(bc); pa != pb {
		return pa
	}
	ta, tb := a.GetCreationTimestamp(), b.GetCreationTimestamp()
	if !ta.Equal(&tb) {
		return ta.Before(&tb)
	}
	if a.GetNamespace() != b.GetNamespace() {
		return a.GetNamespace() < b.GetNamespace()
	}
	return a.GetName() < b.GetName()
}

// Confirm elects again just before a write, after re-reading past the
// cache every peer that could outrank self but that the cache shows as no
// candidate:
// an older resource that has just proven access must not be overruled by a
// cache that has not caught up with its record. It returns the owner.
func Confirm(ctx context.Context, r client.Reader, self Subject, peers []Subject) (Subject, error) {
	rec := Record(self)
	fresh := make([]Subject, 0, len(peers))
	for _, p := range peers {
		if p.GetUID() == self.GetUID() || !couldOutrank(p, self, &rec) || candidate(p, p.GetCustody(), &rec, rec.Object) {
			fresh = append(fresh, p)
			continue
		}
		cp, ok := p.DeepCopyObject().(Subject)
		if !ok {
			return nil, errors.New("cannot copy a peer")
		}
		err := r.Get(ctx, client.ObjectKeyFromObject(p), cp)
		if kerrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, errors.Wrap(err, "cannot re-read an older resource that names the same object")
		}
		fresh = append(fresh, cp)
	}
	return Elect(self, rec, fresh), nil
}

// Hold stops a write of self when an older resource has just become the
// owner (Confirm): it returns an error that says another resource of kind
// now owns what, so nothing is written and the next reconcile reports it.
func Hold(ctx context.Context, r client.Reader, self Subject, peers []Subject, kind, what string) error {
	owner, err := Confirm(ctx, r, self, peers)
	if err != nil {
		return err
	}
	if owner == nil || owner.GetUID() != self.GetUID() {
		return errors.Errorf("another %s has just become the owner of %s; nothing is written, and the next reconcile reports it", kind, what)
	}
	return nil
}

// platform reports whether the record's access was proven through a
// ClusterProviderConfig.
func platform(c *v1alpha1.Custody) bool {
	return c != nil && c.Config == v1alpha1.ClusterProviderConfigKind
}

// couldOutrank reports whether p would come before self, with record rec,
// were p a candidate proven through a ClusterProviderConfig.
func couldOutrank(p, self Subject, rec *v1alpha1.Custody) bool {
	return older(p, &v1alpha1.Custody{Config: v1alpha1.ClusterProviderConfigKind}, self, rec)
}
