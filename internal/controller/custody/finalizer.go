package custody

import (
	"context"

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
