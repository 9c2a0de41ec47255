// Package metrics holds the provider's own Prometheus series: RustFS
// requests by operation and result, per-Tier health and statistics, and
// crossplane-runtime's managed resource metrics. Everything is registered
// on controller-runtime's registry, which the manager serves at /metrics.
// docs/metrics.md documents every series; Series is the list it is
// checked against.
package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// DurationBuckets are the bounds of rustfs_request_duration_seconds, in
// seconds. Calls that make RustFS contact a remote tier may take up to the
// client's 90 s deadline, so the buckets reach beyond it.
var DurationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 90, 120}

var (
	requestsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "rustfs_requests_total",
		Help: "Requests the provider sent to RustFS, by operation and result code (an error code, a status class, or timeout, canceled, network, unreadable).",
	}, []string{"operation", "code"})
	requestDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "rustfs_request_duration_seconds",
		Help:    "Time from sending a request to RustFS to reading its answer, by operation.",
		Buckets: DurationBuckets,
	}, []string{"operation"})
)

func init() {
	metrics.Registry.MustRegister(requestsTotal, requestDuration,
		tiers, ManagedRecorder, StateMetrics, conditionTrue)
}

// knownOps are the operation labels a request may carry.
var knownOps = set(rustfs.Operations())

// knownCodes are the code labels a request may carry.
var knownCodes = set(rustfs.ResultCodes())

func set(s []string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, v := range s {
		m[v] = true
	}
	return m
}

// A RequestRecorder records RustFS requests in rustfs_requests_total and
// rustfs_request_duration_seconds. It is a rustfs.RequestObserver.
type RequestRecorder struct{}

var _ rustfs.RequestObserver = RequestRecorder{}

// Requests is the recorder every RustFS client of the provider reports to.
var Requests = RequestRecorder{}

// ObserveRequest records one request. A label outside the client's bounded
// sets (a bug) is recorded as "unknown" or "other", never as given.
func (RequestRecorder) ObserveRequest(operation, code string, d time.Duration) {
	if !knownOps[operation] {
		operation = rustfs.OpUnknown
	}
	if !knownCodes[code] {
		code = rustfs.CodeOther
	}
	requestsTotal.WithLabelValues(operation, code).Inc()
	requestDuration.WithLabelValues(operation).Observe(d.Seconds())
}
