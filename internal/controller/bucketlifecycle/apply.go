package bucketlifecycle

import (
	"context"
	"fmt"
	"slices"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// Create puts the configuration when the bucket has none, after marking
// the custody record Creating (rule 5), so that a put whose answer is lost
// still counts as created. What it must remember (hashes, dropped fields,
// a failure) goes into annotations, which the managed reconciler persists
// after Create.
func (e *external) Create(ctx context.Context, cr *v1alpha1.BucketLifecycle) (managed.ExternalCreation, error) {
	r, err := e.custodian().Mark(ctx, e.held, cr, v1alpha1.PhaseCreating)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	e.held = r
	return managed.ExternalCreation{}, e.apply(ctx, cr, false)
}

// Update puts the whole configuration, or deletes it when the spec has no
// rules, and persists what it must remember with memo.Persist.
func (e *external) Update(ctx context.Context, cr *v1alpha1.BucketLifecycle) (managed.ExternalUpdate, error) {
	if _, err := e.custodian().Confirm(ctx, e.held, cr); err != nil {
		return managed.ExternalUpdate{}, err
	}
	return managed.ExternalUpdate{}, e.apply(ctx, cr, true)
}

// apply writes the spec's configuration and records the outcome; persist
// says whether to write the annotations itself. The caller has confirmed
// that cr owns the configuration.
func (e *external) apply(ctx context.Context, cr *v1alpha1.BucketLifecycle, persist bool) error {
	desired := translate(cr.Spec.ForProvider.Rules)
	a, err := e.write(ctx, cr.Spec.ForProvider.Bucket, desired)
	if err != nil {
		return e.fail(ctx, cr, desired, err, persist)
	}
	if err := e.acquired(ctx, cr); err != nil {
		return err
	}
	memo.Delete(cr, memo.BlockKey)
	memo.Delete(cr, keyRetry)
	memo.Delete(cr, keyApplied)
	if a.AppliedHash != "" {
		memo.Set(cr, keyApplied, a)
	}
	fold(cr, a)
	cr.SetConditions(xpv2.Available(), degraded(a.Dropped))
	announceApplied(e.record, cr)
	if !persist {
		return nil
	}
	return memo.Persist(ctx, e.kube, cr, keyApplied, keyRetry, memo.BlockKey)
}

// acquired marks a configuration cr was creating as Created.
func (e *external) acquired(ctx context.Context, cr *v1alpha1.BucketLifecycle) error {
	if e.held == nil || e.held.Spec.Phase != v1alpha1.PhaseCreating {
		return nil
	}
	_, err := e.custodian().Mark(ctx, e.held, cr, v1alpha1.PhaseCreated)
	return err
}

// write puts desired and reads it back, or deletes the configuration when
// desired is nil. It returns the memory of what it put.
func (e *external) write(ctx context.Context, bucket string, desired *rustfs.Lifecycle) (applied, error) {
	if desired == nil {
		return applied{}, e.client.DeleteLifecycle(ctx, bucket)
	}
	if err := e.client.PutLifecycle(ctx, bucket, desired); err != nil {
		return applied{}, err
	}
	back, err := e.client.GetLifecycle(ctx, bucket)
	if err != nil && !rustfs.IsNoSuchLifecycle(err) {
		return applied{}, errors.Wrap(err, "cannot read back the lifecycle configuration that was put")
	}
	return applied{AppliedHash: hash(desired), ObservedHash: hash(back), Dropped: capped(dropped(desired, back))}, nil
}

// fail classifies a failed write (docs/design.md §5): a
// storage class that is not a registered tier and a missing bucket are
// retried with backoff; transient failures are retried and keep status;
// anything else blocks the write until the resource or its ProviderConfig
// changes.
func (e *external) fail(ctx context.Context, cr *v1alpha1.BucketLifecycle, desired *rustfs.Lifecycle, err error, persist bool) error {
	bucket := cr.Spec.ForProvider.Bucket
	switch {
	case rustfs.IsInvalidTier(err):
		return e.retryLater(ctx, cr, v1alpha1.ReasonTierNotFound, e.tierNotFound(ctx, desired), err, persist)
	case rustfs.IsNoSuchBucket(err):
		return e.retryLater(ctx, cr, v1alpha1.ReasonBucketNotFound, bucketNotFound(bucket, e.conn.Endpoint), err, persist)
	case rustfs.IsTransient(err):
		return errors.Wrap(err, "cannot apply the lifecycle configuration")
	}
	msg := fmt.Sprintf("RustFS refused the lifecycle configuration of bucket %q (%v): fix spec.forProvider.rules, or the "+
		"ProviderConfig's credentials if access was denied; the provider does not retry until the BucketLifecycle or its "+
		"ProviderConfig changes", bucket, err)
	return memo.Refuse(ctx, e.kube, cr, memo.Block{Reason: v1alpha1.ReasonLifecycleApplyFailed, Message: msg,
		Fingerprint: e.fingerprint(cr)}, persist, err)
}

func (e *external) retryLater(ctx context.Context, cr *v1alpha1.BucketLifecycle, reason xpv2.ConditionReason, msg string, err error, persist bool) error {
	memo.Set(cr, keyRetry, retry{Reason: reason, Message: msg})
	cr.SetConditions(memo.Unready(reason, msg))
	if persist {
		if perr := memo.Persist(ctx, e.kube, cr, keyRetry); perr != nil {
			return perr
		}
	}
	return errors.Wrap(err, msg)
}

// tierNotFound names the storage classes RustFS does not know. It asks
// RustFS for its tiers to name only the missing ones; if it cannot list
// them, it names every storage class of the configuration.
func (e *external) tierNotFound(ctx context.Context, desired *rustfs.Lifecycle) string {
	classes := storageClasses(desired)
	if tiers, err := e.client.ListTiers(ctx); err == nil {
		known := map[string]bool{}
		for _, t := range tiers {
			known[t.Name] = true
		}
		if missing := slices.DeleteFunc(slices.Clone(classes), func(c string) bool { return known[c] }); len(missing) > 0 {
			classes = missing
		}
	}
	return fmt.Sprintf("RustFS has no registered tier named %s (storage class in spec.forProvider.rules): register the tier, for "+
		"example with a Tier, or fix the storage class; the provider retries with backoff and puts the rules once RustFS knows it",
		list(classes, 10))
}

// storageClasses returns the storage classes l transitions to, sorted.
func storageClasses(l *rustfs.Lifecycle) []string {
	var out []string
	if l == nil {
		return nil
	}
	for _, r := range l.Rules {
		for _, t := range r.Transitions {
			out = append(out, t.StorageClass)
		}
		for _, t := range r.NoncurrentVersionTransitions {
			out = append(out, t.StorageClass)
		}
	}
	return compact(out)
}
