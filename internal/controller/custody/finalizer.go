package custody

import (
	"context"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// A statusKeepingFinalizer adds and removes the managed resource finalizer
// like crossplane-runtime's APIFinalizer, except that adding it keeps the
// status Observe has just set in memory.
//
// The managed reconciler adds its finalizer after Observe, with a full
// Update whose reply replaces the object in memory, stored status included.
// On the first reconcile that observes successfully (an adopted resource,
// or one whose earlier observes failed), the conditions and atProvider
// Observe set were lost and the stale stored status written back; because
// a finalizer change is not a change of desired state, nothing reconciled
// again until the next poll.
type statusKeepingFinalizer struct {
	kube client.Client
	resource.Finalizer
}

// NewFinalizer returns the finalizer every managed reconciler of the provider
// uses: crossplane-runtime's, except that adding it keeps the status
// Observe has just set.
func NewFinalizer(kube client.Client) resource.Finalizer {
	return &statusKeepingFinalizer{kube: kube, Finalizer: resource.NewAPIFinalizer(kube, managed.FinalizerName)}
}

// AddFinalizer adds the finalizer through a copy of obj and takes only the
// new resourceVersion and the finalizer from the reply.
func (f *statusKeepingFinalizer) AddFinalizer(ctx context.Context, obj resource.Object) error {
	if meta.FinalizerExists(obj, managed.FinalizerName) {
		return nil
	}
	cp, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return errors.New("cannot copy the managed resource")
	}
	meta.AddFinalizer(cp, managed.FinalizerName)
	if err := f.kube.Update(ctx, cp); err != nil {
		return errors.Wrap(err, "cannot add finalizer")
	}
	meta.AddFinalizer(obj, managed.FinalizerName)
	obj.SetResourceVersion(cp.GetResourceVersion())
	return nil
}

// A releasingFinalizer passes the custody records a deleted resource holds
// on before it removes the finalizer (rule 6).
type releasingFinalizer struct {
	resource.Finalizer
	custodian Custodian
	// peers returns a new, empty list of the kind, whose resources are
	// indexed by their object (IndexObject).
	peers func() client.ObjectList
}

// NewReleasingFinalizer returns NewFinalizer's finalizer, which on removal
// first hands the records o holds to the oldest other resource of o's
// namespace that names the same object, or releases them for o's
// namespace (Handover).
func NewReleasingFinalizer(kube client.Client, cu Custodian, peers func() client.ObjectList) resource.Finalizer {
	return &releasingFinalizer{Finalizer: NewFinalizer(kube), custodian: cu, peers: peers}
}

// RemoveFinalizer hands over o's records, then removes the finalizer.
func (f *releasingFinalizer) RemoveFinalizer(ctx context.Context, obj resource.Object) error {
	if err := f.custodian.Handover(ctx, obj, f.successor); err != nil {
		return err
	}
	return f.Finalizer.RemoveFinalizer(ctx, obj)
}

// successor is the oldest resource of o's namespace, other than o and not
// being deleted, that names object; nil if none.
func (f *releasingFinalizer) successor(ctx context.Context, o client.Object, object string) (client.Object, error) {
	l := f.peers()
	if err := f.custodian.Kube.List(ctx, l, client.InNamespace(o.GetNamespace()), client.MatchingFields{IndexObject: object}); err != nil {
		return nil, errors.Wrap(err, "cannot list the resources that could hold a custody record next")
	}
	var next client.Object
	_ = apimeta.EachListItem(l, func(ro runtime.Object) error {
		c, ok := ro.(client.Object)
		if !ok || c.GetUID() == o.GetUID() || c.GetDeletionTimestamp() != nil {
			return nil
		}
		if ct, nt := c.GetCreationTimestamp(), next; nt == nil || ct.Before(ptr(nt.GetCreationTimestamp())) {
			next = c
		}
		return nil
	})
	return next, nil
}

func ptr[T any](v T) *T { return &v }
