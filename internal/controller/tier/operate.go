package tier

import (
	"context"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/metrics"
)

// Observe observes the tier (observe). When the Tier owns a registered
// tier that needs no write, it then verifies the tier if a verify is due
// (health) and reads its statistics from the shared answer (stats); last,
// it raises one event per change the reconcile made (announce). A Tier
// refused by the tenancy rules, a duplicate and a blocked Tier never get
// that far, so they never verify; nor does an observe-only Tier
// (unverified), as a verify writes a probe object on the remote.
func (e *external) Observe(ctx context.Context, cr *v1alpha1.Tier) (managed.ExternalObservation, error) {
	if meta.WasDeleted(cr) {
		metrics.ForgetTier(cr.GetNamespace(), cr.GetName())
		return e.observe(ctx, cr)
	}
	b := snapshot(cr)
	prev := cr.Status.AtProvider
	o, err := e.observe(ctx, cr)
	if err == nil {
		// observe rebuilds the observation from the live tier; what the
		// provider recorded of health and statistics stays.
		cr.Status.AtProvider.Health, cr.Status.AtProvider.Stats = prev.Health, prev.Stats
	}
	if err == nil && o.ResourceExists && !unverified(cr) && o.ResourceUpToDate {
		e.health(ctx, cr, false)
		e.stats(ctx, cr)
	}
	announce(recorder(e.record), cr, b)
	return o, err
}

// rotated verifies the tier at once after the provider applied new
// credentials, and raises the CredentialsRotated event and any health
// change.
func (e *external) rotated(ctx context.Context, cr *v1alpha1.Tier) {
	b := snapshot(cr)
	recorder(e.record).Event(cr, event.Normal(reasonCredentialsRotated, "applied the credentials of Secret "+
		cr.Spec.ForProvider.CredentialsSecretRef.Name+" to the tier"))
	e.health(ctx, cr, true)
	announce(recorder(e.record), cr, b)
}

// registered raises the Registered event.
func (e *external) registered(cr *v1alpha1.Tier) {
	recorder(e.record).Event(cr, event.Normal(reasonRegistered, "registered tier "+cr.Spec.ForProvider.Name+" in RustFS"))
}

// recorder returns r, or a recorder that drops events when r is nil.
func recorder(r event.Recorder) event.Recorder {
	if r == nil {
		return event.NewNopRecorder()
	}
	return r
}
