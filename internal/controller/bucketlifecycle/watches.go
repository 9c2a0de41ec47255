package bucketlifecycle

import (
	"context"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// Field indexes on BucketLifecycles.
const (
	// indexBucket holds spec.forProvider.bucket.
	indexBucket = "spec.forProvider.bucket"
	// indexBucketRef holds <namespace>/<name> of a bucketRef, or
	// <namespace>/* for a bucketSelector not resolved yet.
	indexBucketRef = "spec.forProvider.bucketRef"
	// indexTierRef holds <namespace>/<name> of every tierRef, and
	// <namespace>/* when a tierSelector is not resolved yet.
	indexTierRef = "spec.forProvider.rules.tierRef"
	// indexStorageClass holds every storage class the rules name.
	indexStorageClass = "spec.forProvider.rules.storageClass"
)

// anyName is the name part of an index value for an unresolved selector.
const anyName = "*"

func setupIndexes(ctx context.Context, idx client.FieldIndexer, s *custody.Shared) error {
	if err := custody.IndexKind(ctx, s, idx, &v1alpha1.BucketLifecycle{}, map[string]func(*v1alpha1.BucketLifecycle) []string{
		indexBucket: bucketOf, indexBucketRef: bucketRefsOf, indexTierRef: tierRefsOf, indexStorageClass: storageClassesOf,
	}); err != nil {
		return err
	}
	// Rule 5 reads the custody of the Buckets of a lifecycle's bucket.
	return s.Index(ctx, idx, &v1alpha1.Bucket{}, custody.IndexExternalName, custody.IndexByExternalName, custody.AllNamespaces)
}

func bucketOf(cr *v1alpha1.BucketLifecycle) []string {
	if b := cr.Spec.ForProvider.Bucket; b != "" {
		return []string{b}
	}
	return nil
}

func bucketRefsOf(cr *v1alpha1.BucketLifecycle) []string {
	p := cr.Spec.ForProvider
	return refKeys(cr.GetNamespace(), p.BucketRef, p.BucketSelector)
}

func tierRefsOf(cr *v1alpha1.BucketLifecycle) []string {
	var out []string
	for _, r := range cr.Spec.ForProvider.Rules {
		for _, t := range r.Transitions {
			out = append(out, refKeys(cr.GetNamespace(), t.TierRef, t.TierSelector)...)
		}
		for _, t := range r.NoncurrentVersionTransitions {
			out = append(out, refKeys(cr.GetNamespace(), t.TierRef, t.TierSelector)...)
		}
	}
	return compact(out)
}

func storageClassesOf(cr *v1alpha1.BucketLifecycle) []string {
	var out []string
	for _, r := range cr.Spec.ForProvider.Rules {
		for _, t := range r.Transitions {
			out = append(out, t.StorageClass)
		}
		for _, t := range r.NoncurrentVersionTransitions {
			out = append(out, t.StorageClass)
		}
	}
	return compact(out)
}

// refKeys returns the index values of a reference or a selector. References
// may only name the resource's own namespace (the CRD enforces it).
func refKeys(ns string, ref *xpv2.NamespacedReference, sel *xpv2.NamespacedSelector) []string {
	switch {
	case ref != nil:
		return []string{ns + "/" + ref.Name}
	case sel != nil:
		return []string{ns + "/" + anyName}
	}
	return nil
}

// compact sorts, de-duplicates and drops empty values.
func compact(s []string) []string {
	s = slices.DeleteFunc(s, func(v string) bool { return v == "" })
	slices.Sort(s)
	return slices.Compact(s)
}

// A mapper maps events of other objects to the BucketLifecycles they affect.
type mapper struct {
	kube client.Reader
}

// forTier enqueues the BucketLifecycles that reference the Tier, or select
// Tiers in its namespace, or name its tier as a storage class.
func (m mapper) forTier(ctx context.Context, o client.Object) []reconcile.Request {
	t, ok := o.(*v1alpha1.Tier)
	if !ok {
		return nil
	}
	return m.lookup(ctx,
		query{indexTierRef, t.GetNamespace() + "/" + t.GetName()},
		query{indexTierRef, t.GetNamespace() + "/" + anyName},
		query{indexStorageClass, t.Spec.ForProvider.Name})
}

// forBucket enqueues the BucketLifecycles that reference the Bucket, select
// Buckets in its namespace, or name its bucket.
func (m mapper) forBucket(ctx context.Context, o client.Object) []reconcile.Request {
	return m.lookup(ctx,
		query{indexBucketRef, o.GetNamespace() + "/" + o.GetName()},
		query{indexBucketRef, o.GetNamespace() + "/" + anyName},
		query{indexBucket, meta.GetExternalName(o)})
}

type query struct{ index, value string }

func (m mapper) lookup(ctx context.Context, qs ...query) []reconcile.Request {
	seen := map[types.NamespacedName]bool{}
	var out []reconcile.Request
	for _, q := range qs {
		if q.value == "" {
			continue
		}
		l := &v1alpha1.BucketLifecycleList{}
		if err := m.kube.List(ctx, l, client.MatchingFields{q.index: q.value}); err != nil {
			// The cache serves these lists; an error means it is not
			// running, and the poll interval still reconciles.
			continue
		}
		for _, cr := range l.Items {
			n := types.NamespacedName{Namespace: cr.GetNamespace(), Name: cr.GetName()}
			if !seen[n] {
				seen[n] = true
				out = append(out, reconcile.Request{NamespacedName: n})
			}
		}
	}
	return out
}

// resetting returns an event handler that enqueues the requests fn maps an
// object to, and forgets their backoff: the backoff a BucketLifecycle built
// up while its Tier or Bucket was not Ready says nothing about what follows,
// and would otherwise delay its next reconciles by up to a minute.
func resetting(fn handler.MapFunc) handler.Funcs {
	enqueue := func(ctx context.Context, o client.Object, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
		for _, r := range fn(ctx, o) {
			q.Forget(r)
			q.Add(r)
		}
	}
	return handler.Funcs{
		CreateFunc: func(ctx context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			enqueue(ctx, e.Object, q)
		},
		UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			enqueue(ctx, e.ObjectNew, q)
		},
		DeleteFunc: func(ctx context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			enqueue(ctx, e.Object, q)
		},
	}
}
