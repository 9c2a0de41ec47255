package options

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// managedReconciles counts the reconciles the Limiter lets through to a
// reconciler, by controller. Unlike controller-runtime's
// controller_runtime_reconcile_total it does not count the passes the
// Limiter defers (they return at once with a RequeueAfter), nor the
// requests a controller answers before the limiter (the BucketLifecycle
// waiting gate).
var managedReconciles = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "rustfs_managed_reconciles_total",
	Help: "Reconciles the global rate limiter passed to a managed resource reconciler, by controller.",
}, []string{"controller"})

func init() {
	metrics.Registry.MustRegister(managedReconciles)
}
