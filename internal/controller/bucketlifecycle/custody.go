package bucketlifecycle

import (
	"context"
	"fmt"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// A custodian is what Observe learned about the tenancy of the bucket's
// lifecycle configuration: the proof a successful read would give, and the
// lifecycles that name the same bucket.
type custodian struct {
	proof custody.Proof
	peers []custody.Subject
}

// bucketRule is rule 5 (docs/multi-tenancy.md): a BucketLifecycle configures
// a bucket only when the Bucket that owns it on the same RustFS is in its
// own namespace, or no Bucket owns it and the lifecycle may adopt. It reads
// the Buckets' custody records from the cache, nothing from RustFS.
func (e *external) bucketRule(ctx context.Context, cr *v1alpha1.BucketLifecycle, c custodian) (*custody.Refusal, error) {
	bucket := cr.Spec.ForProvider.Bucket
	buckets, err := custody.Buckets(ctx, e.kube, bucket)
	if err != nil {
		return nil, err
	}
	owner := custody.Oldest(c.proof, bucket, buckets)
	switch {
	case owner == nil && e.conn.Target.Tenancy.Adoption == v1alpha1.AdoptionNever && !holds(cr, c):
		return &custody.Refusal{Reason: v1alpha1.ReasonAdoptionNotAllowed, Message: fmt.Sprintf("No Bucket manages bucket %q, "+
			"and this BucketLifecycle's ProviderConfig sets adoption: Never, so nothing is read or written. Create a Bucket for "+
			"it in this namespace.", bucket)}, nil
	case owner == nil, owner.GetNamespace() == cr.GetNamespace():
		return nil, nil
	}
	return &custody.Refusal{Reason: v1alpha1.ReasonBucketManagedElsewhere, Message: fmt.Sprintf("Bucket %q is managed by a "+
		"resource in another namespace, and a BucketLifecycle configures only a bucket its own namespace manages, so nothing "+
		"is read or written. Use a bucket of this namespace in spec.forProvider.bucket.", bucket)}, nil
}

// holds reports whether cr's record says it created or adopted the
// configuration of its bucket on this RustFS, through this kind of
// ProviderConfig. An intent to create does not count: it is written only
// after this check passed.
func holds(cr *v1alpha1.BucketLifecycle, c custodian) bool {
	a := custody.Prove(custody.Record(cr), c.proof, time.Time{}).Acquired
	return a == v1alpha1.AcquiredCreated || a == v1alpha1.AcquiredAdopted
}

// identify finds the RustFS identity and the lifecycles of the same bucket.
func (e *external) identify(ctx context.Context, cr *v1alpha1.BucketLifecycle) (custodian, error) {
	p, err := e.identifyFn.Proof(ctx, e.conn, cr.Spec.ForProvider.Bucket)
	if rustfs.IsAccessDenied(err) {
		was := custody.Record(cr)
		if serr := custody.Save(ctx, e.kube, cr, was, custody.Withdraw(was)); serr != nil {
			return custodian{}, serr
		}
	}
	if err != nil {
		return custodian{}, errors.Wrap(err, "cannot identify the RustFS deployment")
	}
	peers, err := e.peers(ctx, cr.Spec.ForProvider.Bucket)
	if err != nil {
		return custodian{}, err
	}
	e.peerList = peers
	return custodian{proof: p, peers: peers}, nil
}

// decide records the lifecycle's proven access, after a read with its own
// credentials answered readErr, and decides whether it may write (package
// custody). RustFS refusing the credentials withdraws its proven access.
func (e *external) decide(ctx context.Context, cr *v1alpha1.BucketLifecycle, c custodian, exists bool, readErr error) (custody.Verdict, error) {
	was := custody.Record(cr)
	if rustfs.IsAccessDenied(readErr) {
		return custody.Verdict{}, custody.Save(ctx, e.kube, cr, was, custody.Withdraw(was))
	}
	bucket := cr.Spec.ForProvider.Bucket
	rec := custody.Prove(was, c.proof, e.now())
	o := custody.Object{Kind: v1alpha1.BucketLifecycleKind, Noun: fmt.Sprintf("the lifecycle configuration of bucket %q", bucket),
		Field:  "spec.forProvider.bucket (S3 keeps one lifecycle configuration per bucket: merge the rules into one BucketLifecycle)",
		Exists: exists, Duplicate: v1alpha1.ReasonDuplicateLifecycle}
	v := custody.Decide(cr, rec, o, e.conn.Target.Tenancy.Adoption, nil, c.peers)
	return v, custody.Save(ctx, e.kube, cr, was, v.Record)
}

// refuse withdraws cr's eligibility and reports r.
func (e *external) refuse(ctx context.Context, cr *v1alpha1.BucketLifecycle, r *custody.Refusal) error {
	was := custody.Record(cr)
	if err := custody.Save(ctx, e.kube, cr, was, custody.Ineligible(was)); err != nil {
		return err
	}
	cr.Status.AtProvider = v1alpha1.BucketLifecycleObservation{}
	cr.SetConditions(custody.Unready(r.Reason, r.Message))
	return r
}

// confirm stops a write when an older BucketLifecycle has just become the
// owner of the configuration (custody.Hold).
func (e *external) confirm(ctx context.Context, cr *v1alpha1.BucketLifecycle) error {
	return custody.Hold(ctx, e.uncached, cr, e.peerList, v1alpha1.BucketLifecycleKind, "this bucket's configuration")
}
