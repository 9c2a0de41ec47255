package custody

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

const errIntent = "cannot record the intent to create the object; nothing was written to RustFS"

// Intend records, before a create, that s is about to create its object:
// status.custody.acquired Creating, written through the status
// subresource. Call it only after an Observe in the same reconcile found
// the object absent and Confirm elected s. If the create's answer is then
// lost, or the record of the create refused, or the provider stops in
// between, the next read that finds the object makes the record Created
// (Decide) instead of leaving an object s made that adoption Never would
// forbid. A record that already says how s acquired the object is kept.
func Intend(ctx context.Context, kube client.Client, s Subject) error {
	was := Record(s)
	if was.Acquired != "" {
		return nil
	}
	rec := was
	rec.Acquired = v1alpha1.AcquiredCreating
	return errors.Wrap(Save(ctx, kube, s, was, rec), errIntent)
}

// Abandon drops s's intent to create: RustFS answered that the object
// already existed, so someone else made it, and the intent must not make
// it s's.
func Abandon(ctx context.Context, kube client.Client, s Subject) error {
	was := Record(s)
	if was.Acquired != v1alpha1.AcquiredCreating {
		return nil
	}
	rec := was
	rec.Acquired = ""
	return Save(ctx, kube, s, was, rec)
}

// resolve settles an intent to create (Acquired Creating) when a read
// finds the object, and reports whether rec held one. The intent becomes
// Created unless a resource that competes with self records having created
// or adopted the object: then the object is that resource's, and the
// intent is dropped, so that an intent can never take over an object
// someone else made. While the object is absent the intent is kept; the
// create that follows writes it again.
func resolve(self Subject, rec v1alpha1.Custody, o Object, peers []Subject) (v1alpha1.Custody, bool) {
	if rec.Acquired != v1alpha1.AcquiredCreating {
		return rec, false
	}
	if !o.Exists {
		return rec, true
	}
	rec.Acquired = v1alpha1.AcquiredCreated
	if heldByPeer(self, &rec, peers) {
		rec.Acquired = ""
	}
	return rec, true
}

// heldByPeer reports whether a peer of self that competes with rec and is
// not being deleted records having created or adopted rec.Object.
func heldByPeer(self Subject, rec *v1alpha1.Custody, peers []Subject) bool {
	for _, p := range peers {
		c := p.GetCustody()
		if p.GetUID() == self.GetUID() || p.GetDeletionTimestamp() != nil || c == nil || c.Object != rec.Object || !competes(c, rec) {
			continue
		}
		if c.Acquired == v1alpha1.AcquiredCreated || c.Acquired == v1alpha1.AcquiredAdopted {
			return true
		}
	}
	return false
}
