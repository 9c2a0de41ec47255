package bucket

import (
	"context"
	"fmt"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// deletes reports whether cr's managementPolicies include Delete (or
// '*'): only then does deleting the Bucket delete its bucket.
func deletes(cr *v1alpha1.Bucket) bool {
	for _, p := range cr.GetManagementPolicies() {
		if p == xpv2.ManagementActionDelete || p == xpv2.ManagementActionAll {
			return true
		}
	}
	return false
}

// observeDeleted observes a Bucket being deleted. Without Delete in its
// policies it reports the bucket gone, before any request, so the
// finalizer goes and the bucket stays. With Delete, a Bucket that does not
// hold its bucket (holdsBucket) is refused before any request; then the
// bucket's contents are read, and a bucket that holds anything is reported,
// with what remains, and kept: Observe returns an error, so the finalizer
// stays until the bucket is emptied or Delete is removed. Only an empty
// bucket is reported to exist, for Delete to delete.
func (e *external) observeDeleted(ctx context.Context, cr *v1alpha1.Bucket) (managed.ExternalObservation, error) {
	if !deletes(cr) {
		return managed.ExternalObservation{}, nil
	}
	name := meta.GetExternalName(cr)
	held, err := e.holdsBucket(ctx, cr, name)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	if !held {
		return managed.ExternalObservation{}, keep(cr, v1alpha1.ReasonNotBucketHolder, fmt.Sprintf("this Bucket does not hold bucket %q "+
			"(it neither created nor adopted it, or another Bucket holds it), so it does not delete it. Remove Delete from "+
			"managementPolicies to delete the Bucket and leave the bucket in place", name))
	}
	exists, err := e.client.BucketExists(ctx, name)
	if err != nil || !exists {
		return managed.ExternalObservation{}, errors.Wrap(err, "cannot observe the bucket")
	}
	c, err := e.client.BucketContents(ctx, name)
	if err != nil {
		return managed.ExternalObservation{}, errors.Wrap(err, "cannot observe the bucket")
	}
	if !c.Empty() {
		return managed.ExternalObservation{}, keep(cr, v1alpha1.ReasonBucketNotEmpty, notEmpty(name, c))
	}
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
}

// holdsBucket reports whether cr holds its bucket and so may delete it:
// the bucket's custody record, read past the cache, names cr as its holder
// and says it created or adopted the bucket. This is the one place that
// decides who may delete a bucket.
func (e *external) holdsBucket(ctx context.Context, cr *v1alpha1.Bucket, name string) (bool, error) {
	id, _, err := e.identify(ctx, e.conn)
	if err != nil {
		return false, errors.Wrap(err, "cannot identify the RustFS deployment")
	}
	r, err := e.custodian().Store.Get(ctx, v1alpha1.CustodyRecordName(id, v1alpha1.CustodyBucket, name))
	if err != nil || r == nil {
		return false, err
	}
	return custody.Holds(r, cr) && (r.Spec.Phase == v1alpha1.PhaseCreated || r.Spec.Phase == v1alpha1.PhaseAdopted), nil
}

// notEmpty describes what holds the bucket.
func notEmpty(name string, c rustfs.Contents) string {
	more := ""
	if c.More {
		more = " (at least: the listing was cut short)"
	}
	return fmt.Sprintf("bucket %q is not empty: it holds %d objects, %d noncurrent versions and %d delete markers%s. The provider never "+
		"empties a bucket: delete every object version and delete marker (and abort incomplete uploads), and the bucket is deleted; "+
		"or remove Delete from managementPolicies to delete the Bucket and keep the bucket", name, c.Objects, c.Noncurrent, c.DeleteMarkers, more)
}

// keep reports why the bucket is kept and returns the error that keeps the
// finalizer.
func keep(cr *v1alpha1.Bucket, reason xpv2.ConditionReason, msg string) error {
	cr.SetConditions(memo.Unready(reason, msg))
	return errors.New(msg)
}

// Delete deletes the bucket, which observeDeleted found empty; without
// Delete in the policies (never called then) it sends nothing. It never
// sends the force-delete header. A bucket that filled up since, or holds
// an incomplete upload that the listing does not show, is refused by
// RustFS with 409 BucketNotEmpty and kept.
func (e *external) Delete(ctx context.Context, cr *v1alpha1.Bucket) (managed.ExternalDelete, error) {
	if !deletes(cr) {
		return managed.ExternalDelete{}, nil
	}
	name := meta.GetExternalName(cr)
	err := e.client.DeleteBucket(ctx, name)
	switch {
	case rustfs.IsBucketNotEmpty(err):
		return managed.ExternalDelete{}, keep(cr, v1alpha1.ReasonBucketNotEmpty, fmt.Sprintf("RustFS refused to delete bucket %q: "+
			"it is not empty (it may hold incomplete uploads, which the listing does not show). Empty it, or remove Delete from "+
			"managementPolicies to keep it", name))
	case rustfs.IsNoSuchBucket(err):
		return managed.ExternalDelete{}, nil
	}
	return managed.ExternalDelete{}, err
}
