package bucketaccess

import (
	"context"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// Field indexes on BucketAccesses.
const (
	// indexBucket holds every resolved bucket name.
	indexBucket = "spec.forProvider.buckets.bucket"
	// indexBucketRef holds <namespace>/<name> of every bucketRef, and
	// <namespace>/* for every bucketSelector.
	indexBucketRef = "spec.forProvider.buckets.bucketRef"
	// indexSecret holds <namespace>/<name> of the connection Secret.
	indexSecret = "spec.writeConnectionSecretToRef.name"
)

// anyName is the name part of an index value for a selector.
const anyName = "*"

// addIndexes registers the controller's field indexes, the index of
// BucketAccesses by ProviderConfig that the tenancy watches read, and the
// index of Buckets by bucket that the bucket rule reads.
func addIndexes(ctx context.Context, fi client.FieldIndexer, s *custody.Shared) error {
	if err := custody.IndexKind(ctx, s, fi, &v1alpha1.BucketAccess{}, map[string]func(*v1alpha1.BucketAccess) []string{
		indexBucket: bucketNames, indexBucketRef: bucketRefs, indexSecret: connectionSecret,
	}); err != nil {
		return err
	}
	return s.Index(ctx, fi, &v1alpha1.Bucket{}, custody.IndexExternalName, custody.IndexByExternalName, custody.AllNamespaces)
}

// bucketNames returns the resolved bucket names of cr, sorted, without
// duplicates.
func bucketNames(cr *v1alpha1.BucketAccess) []string {
	var out []string
	for _, b := range cr.Spec.ForProvider.Buckets {
		if b.Bucket != "" {
			out = append(out, b.Bucket)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// bucketRefs returns the index values of cr's references and selectors.
// They may only name cr's own namespace (the CRD enforces it).
func bucketRefs(cr *v1alpha1.BucketAccess) []string {
	var out []string
	for _, b := range cr.Spec.ForProvider.Buckets {
		switch {
		case b.BucketRef != nil:
			out = append(out, cr.GetNamespace()+"/"+b.BucketRef.Name)
		case b.BucketSelector != nil:
			out = append(out, cr.GetNamespace()+"/"+anyName)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// connectionSecret returns the index value of cr's connection Secret.
func connectionSecret(cr *v1alpha1.BucketAccess) []string {
	r := cr.Spec.WriteConnectionSecretToReference
	if r == nil || r.Name == "" {
		return nil
	}
	return []string{cr.GetNamespace() + "/" + r.Name}
}

// A mapper maps events of other objects to the BucketAccesses they affect.
type mapper struct {
	kube client.Reader
	log  logging.Logger
}

// forBucket enqueues the BucketAccesses that reference the Bucket, select
// Buckets in its namespace, or name its bucket in any namespace: a change of
// the bucket's owner may admit or refuse them.
func (m mapper) forBucket(ctx context.Context, o client.Object) []reconcile.Request {
	seen := map[types.NamespacedName]bool{}
	var out []reconcile.Request
	for _, q := range []struct{ index, value string }{
		{indexBucketRef, o.GetNamespace() + "/" + o.GetName()},
		{indexBucketRef, o.GetNamespace() + "/" + anyName},
		{indexBucket, meta.GetExternalName(o)},
	} {
		if q.value == "" {
			continue
		}
		l := &v1alpha1.BucketAccessList{}
		if err := m.kube.List(ctx, l, client.MatchingFields{q.index: q.value}); err != nil {
			m.log.Info("Cannot list the BucketAccesses of a Bucket", "bucket", o.GetName(), "error", err)
			continue
		}
		for _, r := range custody.Requests(l, "") {
			if !seen[r.NamespacedName] {
				seen[r.NamespacedName] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// forRecord enqueues, for a bucket's custody record, the BucketAccesses of
// any namespace that name its bucket: one whose namespace no longer holds
// it has its key narrowed (follower).
func (m mapper) forRecord(ctx context.Context, o client.Object) []reconcile.Request {
	r, ok := o.(*v1alpha1.CustodyRecord)
	if !ok || r.Spec.Kind != v1alpha1.CustodyBucket {
		return nil
	}
	l := &v1alpha1.BucketAccessList{}
	if err := m.kube.List(ctx, l, client.MatchingFields{indexBucket: r.Spec.Object}); err != nil {
		m.log.Info("Cannot list the BucketAccesses of a bucket", "bucket", r.Spec.Object, "error", err)
		return nil
	}
	return custody.Requests(l, "")
}

// forSecret enqueues the BucketAccesses whose connection Secret it is. It
// goes by the Secret's namespace and name: the cache keeps no owner
// references of Secrets (options.Manager).
func (m mapper) forSecret(ctx context.Context, o client.Object) []reconcile.Request {
	l := &v1alpha1.BucketAccessList{}
	if err := m.kube.List(ctx, l, client.MatchingFields{indexSecret: o.GetNamespace() + "/" + o.GetName()}); err != nil {
		m.log.Info("Cannot list the BucketAccesses of a Secret", "secret", o.GetName(), "error", err)
		return nil
	}
	return custody.Requests(l, "")
}

// deleted passes deletions only: a connection Secret that is gone needs a
// new secret key. Other changes of a Secret's data are found at the next
// poll; the provider's own writes of the Secret enqueue nothing.
func deleted() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return false },
		UpdateFunc:  func(event.UpdateEvent) bool { return false },
		DeleteFunc:  func(event.DeleteEvent) bool { return true },
		GenericFunc: func(event.GenericEvent) bool { return false },
	}
}
