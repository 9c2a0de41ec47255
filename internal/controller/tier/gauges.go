package tier

import (
	"context"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/metrics"
)

// A forgetGone drops the tier gauges of a Tier that is being deleted or is
// gone, then passes the request on. The managed reconciler never observes
// a deleted Tier (tiers are Retain-only: it removes the finalizer without
// connecting), so Observe cannot be the one to drop them.
type forgetGone struct {
	kube  client.Reader
	inner reconcile.Reconciler
}

// Reconcile drops the gauges of req's Tier when it is gone or being
// deleted, and reconciles it.
func (f forgetGone) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cr := &v1alpha1.Tier{}
	err := f.kube.Get(ctx, req.NamespacedName, cr)
	if kerrors.IsNotFound(err) || (err == nil && meta.WasDeleted(cr)) {
		metrics.ForgetTier(req.Namespace, req.Name)
	}
	return f.inner.Reconcile(ctx, req)
}
