package bucketlifecycle

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// An awaiting reconciler stands in front of the global rate limiter. A
// BucketLifecycle whose referenced Bucket or Tier is missing or not Ready
// is not passed to the managed reconciler at all, so it takes no token of
// the limiter and makes no failed resolution: the gate reports the wait in
// the lifecycle's status itself (only when the report changes) and leaves
// it alone. The Tier and Bucket watches enqueue it the moment a reference
// becomes Ready, and the poll interval remains the safety net. Without it,
// each waiting lifecycle is reconciled to fail its resolution and then
// retried with backoff (at most a minute apart), and a thousand of them
// take most of the provider's reconciles from the Tiers and Buckets they
// wait for.
type awaiting struct {
	kube  client.Client
	inner reconcile.Reconciler
	poll  time.Duration
}

// Reconcile passes the request on unless the resource waits for a
// reference, in which case it reports the wait.
func (a *awaiting) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cr := &v1alpha1.BucketLifecycle{}
	if err := a.kube.Get(ctx, req.NamespacedName, cr); err != nil {
		return a.inner.Reconcile(ctx, req)
	}
	msg := waitMessage(ctx, a.kube, cr)
	if msg == "" {
		return a.inner.Reconcile(ctx, req)
	}
	return custody.Requeue(a.report(ctx, cr, msg), a.poll)
}

// report sets Synced=False and Ready=False with reason WaitingForReference
// and msg, unless they already say so for this generation. The status
// patch is conditional on the resourceVersion read, so a stale cache never
// overwrites a newer status.
func (a *awaiting) report(ctx context.Context, cr *v1alpha1.BucketLifecycle, msg string) error {
	c := xpv2.Condition{Status: corev1.ConditionFalse, Reason: v1alpha1.ReasonWaitingForReference, Message: msg,
		LastTransitionTime: metav1.Now(), ObservedGeneration: cr.GetGeneration()}
	synced, ready := c, c
	synced.Type, ready.Type = xpv2.TypeSynced, xpv2.TypeReady
	if cr.GetCondition(xpv2.TypeSynced).Equal(synced) && cr.GetCondition(xpv2.TypeReady).Equal(ready) {
		return nil
	}
	patch := client.MergeFromWithOptions(cr.DeepCopy(), client.MergeFromWithOptimisticLock{})
	cr.SetConditions(synced, ready)
	return errors.Wrap(a.kube.Status().Patch(ctx, cr, patch), "cannot report the references the lifecycle waits for")
}

// waitMessage returns what cr, not being deleted nor paused, waits for: its
// references not resolved yet whose Bucket or Tier is missing or not Ready.
// It returns "" when cr waits for nothing. Selectors are not checked: they
// are resolved by the managed reconciler.
func waitMessage(ctx context.Context, kube client.Reader, cr *v1alpha1.BucketLifecycle) string {
	if meta.WasDeleted(cr) || meta.IsPaused(cr) {
		return ""
	}
	var waits []string
	seen := map[string]bool{}
	for _, r := range unresolved(cr) {
		if seen[r.kind+"/"+r.name] {
			continue
		}
		seen[r.kind+"/"+r.name] = true
		if w := awaited(ctx, kube, r, cr.GetNamespace()); w != "" {
			waits = append(waits, w)
		}
	}
	if len(waits) == 0 {
		return ""
	}
	return "waiting for " + strings.Join(waits, "; ")
}

// A ref is a referenced object, by kind and name.
type ref struct {
	kind string
	obj  client.Object
	name string
}

// unresolved returns the references of cr whose value is not filled in.
func unresolved(cr *v1alpha1.BucketLifecycle) []ref {
	p := cr.Spec.ForProvider
	var out []ref
	if p.Bucket == "" && p.BucketRef != nil {
		out = append(out, ref{kind: v1alpha1.BucketKind, obj: &v1alpha1.Bucket{}, name: p.BucketRef.Name})
	}
	tier := func(storageClass string, r *xpv2.NamespacedReference) {
		if storageClass == "" && r != nil {
			out = append(out, ref{kind: v1alpha1.TierKind, obj: &v1alpha1.Tier{}, name: r.Name})
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

// awaited returns what the lifecycle waits for from r, or "" if r's object
// exists and is Ready: "Tier cold (tier COLD) to become Ready", or "Tier
// cold to be created and become Ready" when it does not exist.
func awaited(ctx context.Context, kube client.Reader, r ref, ns string) string {
	if err := kube.Get(ctx, types.NamespacedName{Namespace: ns, Name: r.name}, r.obj); err != nil {
		return fmt.Sprintf("%s %s to be created and become Ready", r.kind, r.name)
	}
	if custody.Ready(r.obj) {
		return ""
	}
	if id := identity(r.obj); id != "" {
		return fmt.Sprintf("%s %s (%s) to become Ready", r.kind, r.name, id)
	}
	return fmt.Sprintf("%s %s to become Ready", r.kind, r.name)
}

// identity names what a referenced object stands for in RustFS: the tier
// name of a Tier, the bucket (its external name) of a Bucket.
func identity(o client.Object) string {
	if t, ok := o.(*v1alpha1.Tier); ok {
		return "tier " + t.Spec.ForProvider.Name
	}
	if b := meta.GetExternalName(o); b != "" {
		return "bucket " + b
	}
	return ""
}
