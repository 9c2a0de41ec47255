package bucketlifecycle

import (
	"context"
	"fmt"
	"slices"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// custodian decides through custody records, read past the cache.
func (e *external) custodian() custody.Custodian {
	return custody.Custodian{Store: custody.Store{Kube: e.kube, Reader: e.uncached}, Identify: e.identifyFn, Now: e.now}
}

// dependents is rule 7 (docs/multi-tenancy.md): a BucketLifecycle never
// configures a bucket whose record another namespace holds, and its
// transitions never name a tier whose record another namespace holds,
// unless sharedTiers lists it. A bucket or tier no resource has recorded
// is allowed (the Gate has checked the slice under NamespacePrefix). It
// reads records, nothing from RustFS.
func (e *external) dependents(ctx context.Context, cr *v1alpha1.BucketLifecycle, identity string) (*custody.Refusal, error) {
	ns, bucket := cr.GetNamespace(), cr.Spec.ForProvider.Bucket
	held, recorded, err := e.custodian().HeldIn(ctx, identity, v1alpha1.CustodyBucket, bucket, ns)
	if err != nil {
		return nil, err
	}
	if !held && recorded {
		return &custody.Refusal{Reason: v1alpha1.ReasonBucketManagedElsewhere, Message: fmt.Sprintf("Bucket %q is held by no "+
			"Bucket of this namespace, and a BucketLifecycle configures only a bucket its own namespace holds, so nothing is "+
			"read or written. Create a Bucket for it in this namespace, or use one in spec.forProvider.bucket.", bucket)}, nil
	}
	var missing []string
	for _, sc := range storageClassesOf(cr) {
		if slices.Contains(e.conn.Target.Tenancy.SharedTiers, sc) {
			continue
		}
		held, recorded, err := e.custodian().HeldIn(ctx, identity, v1alpha1.CustodyTier, sc, ns)
		if err != nil {
			return nil, err
		}
		if !held && recorded {
			missing = append(missing, fmt.Sprintf("%q", sc))
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	return &custody.Refusal{Reason: v1alpha1.ReasonTierNotHeld, Message: fmt.Sprintf("Transitions name tiers %s, which a resource "+
		"in another namespace holds and the ProviderConfig's sharedTiers do not list, so nothing is read or written. Create a Tier "+
		"for them in this namespace, or ask the platform team to list them in sharedTiers.", joinNames(missing))}, nil
}

func joinNames(n []string) string {
	out := ""
	for i, s := range n {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

// identity is the identity of the RustFS deployment the lifecycle reaches.
func (e *external) identity(ctx context.Context) (string, error) {
	id, _, err := e.identifyFn(ctx, e.conn)
	return id, errors.Wrap(err, "cannot identify the RustFS deployment")
}

// claim holds the configuration's custody record for cr, or says why it
// may not write it (package custody).
func (e *external) claim(ctx context.Context, cr *v1alpha1.BucketLifecycle, exists bool) (*custody.Refusal, error) {
	bucket := cr.Spec.ForProvider.Bucket
	r, refusal, err := e.custodian().Admit(ctx, cr, e.conn, custody.Claim{Kind: v1alpha1.CustodyBucketLifecycle, Object: bucket,
		Exists: exists, Adoption: e.conn.Target.Tenancy.Adoption, Noun: fmt.Sprintf("the lifecycle configuration of bucket %q", bucket),
		Field:     "spec.forProvider.bucket (S3 keeps one lifecycle configuration per bucket: merge the rules into one BucketLifecycle)",
		Duplicate: v1alpha1.ReasonDuplicateLifecycle})
	e.held = r
	return refusal, err
}

// refuse withdraws cr's eligibility and reports r.
func (e *external) refuse(ctx context.Context, cr *v1alpha1.BucketLifecycle, r *custody.Refusal) error {
	was := custody.Record(cr)
	if err := custody.Save(ctx, e.kube, cr, was, custody.Ineligible(was)); err != nil {
		return err
	}
	cr.Status.AtProvider = v1alpha1.BucketLifecycleObservation{}
	cr.SetConditions(memo.Unready(r.Reason, r.Message))
	return r
}
