package options

import (
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// managedReconciles counts the reconciles the global rate limiter lets
// through to a reconciler, by controller: the figure the benchmark reports
// per resource, served on the metrics endpoint (README.md, "Provider
// flags"). Unlike controller-runtime's
// controller_runtime_reconcile_total it does not count the passes the
// global limiter defers (they return at once with a RequeueAfter), nor the
// requests a controller answers before the limiter (the BucketLifecycle
// waiting gate).
var managedReconciles = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "rustfs_managed_reconciles_total",
	Help: "Reconciles the global rate limiter passed to a managed resource reconciler, by controller.",
}, []string{"controller"})

func init() {
	metrics.Registry.MustRegister(managedReconciles)
}

// A countingLimiter is the global rate limiter of crossplane-runtime's
// ratelimiter.Reconciler, which calls Forget exactly once for each request
// it passes to the reconciler it wraps, and nowhere else. Counting Forget
// therefore counts the reconciles that reached the managed reconciler.
type countingLimiter struct {
	ratelimiter.RateLimiter
}

// Forget counts the pass and forgets item.
func (l countingLimiter) Forget(item string) {
	managedReconciles.WithLabelValues(controllerOf(item)).Inc()
	l.RateLimiter.Forget(item)
}

// controllerOf returns the controller name in a limiter item, which is the
// controller name ("managed/tier.rustfs.m.crossplane.io") followed by the
// request ("namespace/name") without a separator: everything up to the
// end of the API group.
func controllerOf(item string) string {
	i := strings.Index(item, v1alpha1.Group)
	if i < 0 {
		return "other"
	}
	return item[:i+len(v1alpha1.Group)]
}
