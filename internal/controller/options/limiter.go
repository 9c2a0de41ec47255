package options

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// managedReconciles counts the reconciles the Limiter lets through to a
// reconciler, by controller and cause (event, follow-up, poll). Unlike
// controller-runtime's controller_runtime_reconcile_total it does not count
// the passes the Limiter defers (deferredReconciles), nor the requests a
// controller answers before the limiter (the BucketLifecycle waiting gate).
var managedReconciles = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "rustfs_managed_reconciles_total",
	Help: "Reconciles the global rate limiter passed to a managed resource reconciler, by controller and cause (event, follow-up, poll).",
}, []string{"controller", "cause"})

// deferredReconciles counts the passes the Limiter sent back to wait for a
// token, by controller: controller-runtime counts them as reconciles.
var deferredReconciles = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "rustfs_deferred_reconciles_total",
	Help: "Reconciles the global rate limiter sent back to wait for a token, by controller.",
}, []string{"controller"})

func init() {
	metrics.Registry.MustRegister(managedReconciles, deferredReconciles)
}

// A pass is what one reconcile let through by the Limiter did.
type pass struct {
	wrote  bool // a create, update or delete of the external resource succeeded
	absent bool // Observe found no external resource (observing)
}

type passKey struct{}

// passOf returns the pass of ctx, or nil outside the Limiter.
func passOf(ctx context.Context) *pass {
	p, _ := ctx.Value(passKey{}).(*pass)
	return p
}

// Writes is a managed.ChangeLogger that tells the Limiter which passes
// wrote to RustFS (crossplane-runtime logs every successful create, update
// and delete), then hands the change to Next, the change log of
// --enable-change-logs, if any.
type Writes struct {
	Next managed.ChangeLogger
}

// Log marks the pass of ctx as one that wrote when the change succeeded.
func (w Writes) Log(ctx context.Context, mg resource.Managed, op v1alpha1.OperationType, changeErr error, ad managed.AdditionalDetails) error {
	if p := passOf(ctx); p != nil && changeErr == nil {
		p.wrote = true
	}
	if w.Next == nil {
		return nil
	}
	return w.Next.Log(ctx, mg, op, changeErr, ad)
}
