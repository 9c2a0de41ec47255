package bucketlifecycle

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// An awaiting reconciler stands in front of the global rate limiter. A
// BucketLifecycle that was reconciled before (its status already says
// what it waits for) and whose referenced Bucket or Tier is still not
// Ready is not reconciled and takes no token of the limiter: the Tier and
// Bucket watches enqueue it the moment they become Ready, and the poll
// interval remains the safety net. Without it, each waiting lifecycle
// retries with backoff (at most a minute apart), and a thousand of them
// take most of the provider's reconciles from the Tiers and Buckets they
// wait for.
type awaiting struct {
	kube  client.Reader
	inner reconcile.Reconciler
	poll  time.Duration
}

// Reconcile passes the request on unless the resource waits for a
// reference.
func (a *awaiting) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cr := &v1alpha1.BucketLifecycle{}
	if err := a.kube.Get(ctx, req.NamespacedName, cr); err != nil || !waits(ctx, a.kube, cr) {
		return a.inner.Reconcile(ctx, req)
	}
	return reconcile.Result{RequeueAfter: a.poll}, nil
}

// waits reports whether cr, already reconciled and not being deleted, has a
// reference not resolved yet whose Bucket or Tier is missing or not Ready.
// Selectors are not checked: they are resolved by the managed reconciler.
func waits(ctx context.Context, kube client.Reader, cr *v1alpha1.BucketLifecycle) bool {
	if meta.WasDeleted(cr) || cr.GetCondition(xpv2.TypeSynced).Status == corev1.ConditionUnknown {
		return false
	}
	for _, r := range unresolved(cr) {
		if !readyRef(ctx, kube, r.obj, cr.GetNamespace(), r.name) {
			return true
		}
	}
	return false
}

// A ref is a referenced object, by kind and name.
type ref struct {
	obj  client.Object
	name string
}

// unresolved returns the references of cr whose value is not filled in.
func unresolved(cr *v1alpha1.BucketLifecycle) []ref {
	p := cr.Spec.ForProvider
	var out []ref
	if p.Bucket == "" && p.BucketRef != nil {
		out = append(out, ref{obj: &v1alpha1.Bucket{}, name: p.BucketRef.Name})
	}
	tier := func(storageClass string, r *xpv2.NamespacedReference) {
		if storageClass == "" && r != nil {
			out = append(out, ref{obj: &v1alpha1.Tier{}, name: r.Name})
		}
	}
	for _, r := range p.Rules {
		for _, t := range r.Transitions {
			tier(t.StorageClass, t.TierRef)
		}
		for _, t := range r.NoncurrentVersionTransitions {
			tier(t.StorageClass, t.TierRef)
		}
	}
	return out
}

// readyRef reports whether the referenced object exists and is Ready.
func readyRef(ctx context.Context, kube client.Reader, o client.Object, ns, name string) bool {
	if err := kube.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, o); err != nil {
		return false
	}
	return ready(o)
}
