package tier

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
	"github.com/crossplane-contrib/provider-rustfs/internal/naming"
)

const (
	errAdd     = "cannot add tier"
	errEdit    = "cannot rotate tier credentials"
	errExists  = "tier was added concurrently; it is observed and adopted on the next reconcile"
	errPersist = "cannot record the tier's credentials"
)

// Create registers the tier with the Secret's credentials and force. It
// marks the custody record Creating first and Created after (rule 5), so
// that a tier whose add answer is lost is still known as created. The
// reconciler persists only annotations after
// Create, so what must be remembered (the credentials applied, or a
// blocking failure) is written to annotations, which Observe folds into
// status.
func (e *external) Create(ctx context.Context, cr *v1alpha1.Tier) (managed.ExternalCreation, error) {
	c, err := e.prepare(ctx, cr)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	r, err := e.custodian().Mark(ctx, e.held, cr, v1alpha1.PhaseCreating)
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	t := withCredentials(desiredTier(cr.Spec.ForProvider), c)
	err = e.api.AddTier(ctx, t, cr.Spec.ForProvider.Force)
	e.tiers.Invalidate(e.conn)
	if err != nil {
		return managed.ExternalCreation{}, e.addFailed(cr, c, err)
	}
	memo.Set(cr, credentialsKey, c.applied())
	memo.Delete(cr, memo.BlockKey)
	if _, err := e.custodian().Mark(ctx, r, cr, v1alpha1.PhaseCreated); err != nil {
		return managed.ExternalCreation{}, errors.Wrap(err, errPersist)
	}
	e.registered(cr)
	return managed.ExternalCreation{}, nil
}

// prepare repeats, before a write, the checks Observe made: the tier name
// rules, that the Tier still holds the tier name's custody record, read
// past the cache (rule 2), and readable Secret credentials.
func (e *external) prepare(ctx context.Context, cr *v1alpha1.Tier) (secretCreds, error) {
	name := cr.Spec.ForProvider.Name
	if rule := naming.Tier.Broken(name); rule != "" {
		return secretCreds{}, &blockedError{Reason: v1alpha1.ReasonTierApplyFailed, Message: nameMessage(name, rule)}
	}
	if _, err := e.custodian().Confirm(ctx, e.held, cr); err != nil {
		return secretCreds{}, err
	}
	c, err := e.credentials(ctx, cr)
	if err != nil {
		return secretCreds{}, err
	}
	return c, nil
}

// addFailed records a failed add. A concurrent add and transient answers
// are retried with backoff; anything else blocks the add until the Tier,
// its Secret or its ProviderConfig changes, except an ambiguous answer
// (rustfs.IsAmbiguous), whose block lapses after one poll interval.
func (e *external) addFailed(cr *v1alpha1.Tier, c secretCreds, err error) error {
	switch {
	case rustfs.IsTierExists(err):
		return errors.Wrap(err, errExists)
	case rustfs.IsTransient(err):
		return errors.Wrap(err, errAdd)
	}
	reason, msg, ambiguous := addFailure(cr, err)
	b := memo.Block{Reason: reason, Message: msg, Fingerprint: fingerprint(cr, c.version, e.conn.Revision), Op: opAdd}
	if ambiguous {
		b.Expires = &metav1.Time{Time: e.now().Add(e.poll)}
	}
	memo.Set(cr, memo.BlockKey, b)
	return failBecause(cr, reason, msg, err)
}

// Update applies the Secret's credentials to the tier: exactly one
// credentials-only edit with both keys. Everything else about a registered
// tier is immutable in RustFS, so Observe asks for an update only when the
// credentials must be applied. The record of what was applied is persisted
// here, because annotations set in Update are not saved by the reconciler.
func (e *external) Update(ctx context.Context, cr *v1alpha1.Tier) (managed.ExternalUpdate, error) {
	c, err := e.prepare(ctx, cr)
	if err != nil {
		return managed.ExternalUpdate{}, err
	}
	err = e.edit(ctx, cr, c)
	e.tiers.Invalidate(e.conn)
	if err != nil {
		return managed.ExternalUpdate{}, e.editFailed(ctx, cr, c, err)
	}
	a := c.applied()
	memo.Set(cr, credentialsKey, a)
	memo.Delete(cr, memo.BlockKey)
	if err := memo.Persist(ctx, e.kube, cr, credentialsKey, memo.BlockKey); err != nil {
		return managed.ExternalUpdate{}, errors.Wrap(err, errPersist)
	}
	cr.Status.AtProvider.Credentials = observation(nil, &a, nil).Credentials
	e.rotated(ctx, cr)
	return managed.ExternalUpdate{}, nil
}

// editFailed records a failed edit. A tier removed out of band and
// transient answers are retried with backoff (the next Observe sees a
// missing tier and adds it); anything else blocks the edit until the Tier,
// its Secret or its ProviderConfig changes (for an ambiguous answer, for
// one poll interval). When the remote refused the new
// credentials RustFS keeps the ones it had (1.0.x probes the new ones
// first, docs/rustfs-wire.md §13.2), so the Tier stays Ready (editFailure).
func (e *external) editFailed(ctx context.Context, cr *v1alpha1.Tier, c secretCreds, err error) error {
	if rustfs.IsTierNotFound(err) || rustfs.IsTransient(err) {
		return errors.Wrap(err, errEdit)
	}
	reason, msg, ambiguous := editFailure(cr, err)
	b := memo.Block{Reason: reason, Message: msg,
		Fingerprint: fingerprint(cr, c.version, e.conn.Revision), Op: opEdit}
	if ambiguous {
		b.Expires = &metav1.Time{Time: e.now().Add(e.poll)}
	}
	memo.Set(cr, memo.BlockKey, b)
	if perr := memo.Persist(ctx, e.kube, cr, memo.BlockKey); perr != nil {
		return errors.Wrap(perr, "cannot record the blocked credentials edit")
	}
	return failBecause(cr, reason, msg, err)
}
