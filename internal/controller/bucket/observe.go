package bucket

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

// observe checks the bucket name, then reads whether the bucket exists,
// which proves the Bucket's access to RustFS, and decides whether the
// Bucket may write the bucket (package custody): a Bucket that may not
// reads nothing more. The owner then reads the bucket's region, object
// lock and versioning. It writes nothing to RustFS. A setting that cannot
// change on an existing bucket and differs from the spec is a
// BucketConflict: Observe returns an error so that nothing is written, and
// keeps observing with backoff until the spec or the bucket changes.
func (e *external) observe(ctx context.Context, cr *v1alpha1.Bucket) (managed.ExternalObservation, error) {
	if meta.WasDeleted(cr) {
		return e.observeDeleted(ctx, cr)
	}
	name := meta.GetExternalName(cr)
	if err := checkBucketName(cr, name); err != nil {
		return managed.ExternalObservation{}, err
	}
	exists, err := e.exists(ctx, cr, name)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	refusal, err := e.custody(ctx, cr, name, exists)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	if refusal != nil {
		cr.Status.AtProvider = v1alpha1.BucketObservation{}
		cr.SetConditions(memo.Unready(refusal.Reason, refusal.Message))
		return managed.ExternalObservation{}, refusal
	}
	if !exists {
		return managed.ExternalObservation{}, e.recorded(ctx, cr, false)
	}
	want := desired(cr.Spec.ForProvider, e.conn.Config.Region)
	got, err := e.settings(ctx, name, want.Quota)
	if err != nil {
		return managed.ExternalObservation{}, err
	}
	e.live = got
	cr.Status.AtProvider = observation(got, e.held.Spec.Phase == v1alpha1.PhaseAdopted)
	if c := conflicts(want, got); len(c) > 0 {
		msg := fmt.Sprintf("bucket %q exists with settings that cannot change on an existing bucket: %s. Set them in the spec "+
			"to the live values, or use another bucket name; the provider writes nothing to this bucket until then", name, strings.Join(c, "; "))
		cr.SetConditions(memo.Unready(v1alpha1.ReasonBucketConflict, msg))
		return managed.ExternalObservation{}, errors.New(msg)
	}
	diff := joinDiffs(versioningDiff(want, got), quotaDiff(want.Quota, got.Quota))
	if err := e.recorded(ctx, cr, diff == ""); err != nil {
		return managed.ExternalObservation{}, err
	}
	cr.SetConditions(xpv2.Available())
	return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: diff == "", Diff: diff}, nil
}

// exists reports whether the bucket exists, with the Bucket's own
// credentials. RustFS refusing them withdraws the Bucket's proven access.
func (e *external) exists(ctx context.Context, cr *v1alpha1.Bucket, name string) (bool, error) {
	exists, err := e.client.BucketExists(ctx, name)
	if rustfs.IsAccessDenied(err) {
		was := custody.Record(cr)
		if serr := custody.Save(ctx, e.kube, cr, was, custody.Withdraw(was)); serr != nil {
			return false, serr
		}
	}
	return exists, errors.Wrap(err, "cannot observe the bucket")
}

// custody holds the bucket's custody record for the Bucket, or says why it
// may not write the bucket (package custody).
func (e *external) custody(ctx context.Context, cr *v1alpha1.Bucket, name string, exists bool) (*custody.Refusal, error) {
	r, refusal, err := e.custodian().Admit(ctx, cr, e.conn, custody.Claim{Kind: v1alpha1.CustodyBucket, Object: name, Exists: exists,
		Adoption: e.conn.Target.Tenancy.Adoption, Noun: fmt.Sprintf("bucket %q", name),
		Field: "the crossplane.io/external-name annotation (metadata.name by default)", Duplicate: v1alpha1.ReasonDuplicateBucket})
	e.held = r
	return refusal, err
}

// checkBucketName reports InvalidBucketName, before any request, for a name
// that breaks the S3 naming rules.
func checkBucketName(cr *v1alpha1.Bucket, name string) error {
	broken := naming.Bucket.Broken(name)
	if broken == "" {
		return nil
	}
	msg := fmt.Sprintf("bucket name %q breaks the S3 bucket naming rules: it %s. Set the crossplane.io/external-name annotation "+
		"(which defaults to metadata.name) to a valid name; the provider sends nothing to RustFS until then", name, broken)
	cr.SetConditions(memo.Unready(v1alpha1.ReasonInvalidBucketName, msg))
	return errors.New(msg)
}

// settings reads the live region, object lock, versioning and quota
// (liveQuota, which depends on the quota the spec wants).
func (e *external) settings(ctx context.Context, name string, want quota) (settings, error) {
	loc, err := e.client.GetBucketLocation(ctx, name)
	if err != nil {
		return settings{}, errors.Wrap(err, "cannot observe the bucket")
	}
	lock, err := e.client.GetObjectLockEnabled(ctx, name)
	if err != nil {
		return settings{}, errors.Wrap(err, "cannot observe the bucket")
	}
	v, err := e.client.GetVersioning(ctx, name)
	if err != nil {
		return settings{}, errors.Wrap(err, "cannot observe the bucket")
	}
	q, err := e.liveQuota(ctx, name, want)
	return settings{Region: loc, ObjectLock: lock, Versioning: v, Quota: q}, err
}

// recorded applies a blocking failure recorded by an earlier write: while
// it holds and a write is needed, Observe reports it and returns an error,
// so that the write is not attempted again. When no write is needed any
// more, the record is cleared.
func (e *external) recorded(ctx context.Context, cr *v1alpha1.Bucket, upToDate bool) error {
	return memo.Recorded(ctx, e.kube, cr, e.fingerprint(cr), e.now(), upToDate)
}

// fingerprint digests what lifts a block: the resource's generation, its
// external name and its ProviderConfig's revision.
func (e *external) fingerprint(cr *v1alpha1.Bucket) string {
	return memo.Fingerprint(strconv.FormatInt(cr.GetGeneration(), 10), meta.GetExternalName(cr), e.conn.Revision)
}

// Create creates the bucket with its region and object lock, then sets its
// versioning if the spec asks for it. It marks the custody record Creating
// before the create and Created after it (rule 5): a lost answer is
// settled by the next read that finds the bucket.
func (e *external) Create(ctx context.Context, cr *v1alpha1.Bucket) (managed.ExternalCreation, error) {
	r, err := e.custodian().Mark(ctx, e.held, cr, v1alpha1.PhaseCreating)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	name := meta.GetExternalName(cr)
	want := desired(cr.Spec.ForProvider, e.conn.Config.Region)
	if err := e.client.CreateBucket(ctx, name, rustfs.CreateBucketOptions{Region: want.Region, ObjectLock: want.ObjectLock}); err != nil {
		return managed.ExternalCreation{}, e.fail(ctx, cr, "create", err, false)
	}
	memo.Delete(cr, memo.BlockKey)
	if _, err := e.custodian().Mark(ctx, r, cr, v1alpha1.PhaseCreated); err != nil {
		return managed.ExternalCreation{}, err
	}
	if want.Versioning != rustfs.VersioningUnset {
		if err := e.client.SetVersioning(ctx, name, want.Versioning); err != nil {
			return managed.ExternalCreation{}, e.fail(ctx, cr, "set the versioning of", err, false)
		}
	}
	if want.Quota.Limit > 0 {
		if err := e.applyQuota(ctx, name, want.Quota); err != nil {
			return managed.ExternalCreation{}, e.fail(ctx, cr, "set the quota of", err, false)
		}
	}
	return managed.ExternalCreation{}, nil
}

// Update sets the bucket's versioning and quota, the settings that can
// change, where they differ from what Observe found.
func (e *external) Update(ctx context.Context, cr *v1alpha1.Bucket) (managed.ExternalUpdate, error) {
	if _, err := e.custodian().Confirm(ctx, e.held, cr); err != nil {
		return managed.ExternalUpdate{}, err
	}
	name := meta.GetExternalName(cr)
	want := desired(cr.Spec.ForProvider, e.conn.Config.Region)
	if versioningDiff(want, e.live) != "" {
		if err := e.client.SetVersioning(ctx, name, want.Versioning); err != nil {
			return managed.ExternalUpdate{}, e.fail(ctx, cr, "set the versioning of", err, true)
		}
	}
	if quotaDiff(want.Quota, e.live.Quota) != "" {
		if err := e.applyQuota(ctx, name, want.Quota); err != nil {
			return managed.ExternalUpdate{}, e.fail(ctx, cr, "set the quota of", err, true)
		}
	}
	cr.SetConditions(xpv2.Available())
	return managed.ExternalUpdate{}, nil
}

// fail classifies a failed write: transient failures and a bucket that
// vanished are retried with backoff; anything else blocks the write until
// the Bucket or its ProviderConfig changes. persist says whether to write
// the block annotation itself (outside Create).
func (e *external) fail(ctx context.Context, cr *v1alpha1.Bucket, op string, err error, persist bool) error {
	name := meta.GetExternalName(cr)
	if rustfs.IsTransient(err) || rustfs.IsNoSuchBucket(err) {
		return errors.Wrapf(err, "cannot %s bucket %q", op, name)
	}
	msg := fmt.Sprintf("cannot %s bucket %q (%v): fix spec.forProvider or the bucket name, or the ProviderConfig's credentials "+
		"if access was denied; the provider does not retry until the Bucket or its ProviderConfig changes", op, name, err)
	return memo.Refuse(ctx, e.kube, cr, memo.Block{Reason: v1alpha1.ReasonBucketApplyFailed, Message: msg, Fingerprint: e.fingerprint(cr)},
		persist, err)
}
