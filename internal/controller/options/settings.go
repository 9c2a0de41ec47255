package options

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/gate"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/metrics"
)

// ControllerSettings are the settings every controller shares.
type ControllerSettings struct {
	Poll             time.Duration
	PollJitter       time.Duration
	MaxReconcileRate int
	// NaiveTierList is benchmark wiring (Options.NaiveTierList).
	NaiveTierList bool
	// TierVerifyInterval is Options.TierVerifyInterval.
	TierVerifyInterval time.Duration
	// StateMetricInterval is how often each kind's managed resource state
	// gauges are recounted (internal/metrics); 0 turns them off.
	StateMetricInterval time.Duration
}

// New returns the controller options the provider runs with. Management
// policies are always enabled, one Limiter admits the reconciles of every
// controller, polls after events, and counts the reconciles it passes
// (rustfs_managed_reconciles_total), and the managed reconcilers record
// crossplane-runtime's metrics (internal/metrics).
func New(log logging.Logger, s ControllerSettings) Options {
	features := &feature.Flags{}
	features.Enable(feature.EnableBetaManagementPolicies)
	limiter := NewLimiter(s.MaxReconcileRate)
	o := Options{
		Options: controller.Options{
			Logger:                  log,
			MaxConcurrentReconciles: s.MaxReconcileRate,
			PollInterval:            s.Poll,
			GlobalRateLimiter:       limiter,
			Features:                features,
			Gate:                    new(gate.Gate[schema.GroupVersionKind]),
		},
		Limiter:            limiter,
		PollJitter:         s.PollJitter,
		NaiveTierList:      s.NaiveTierList,
		TierVerifyInterval: s.TierVerifyInterval,
		Custody:            custody.NewShared(),
		Identities:         rustfs.NewIdentityCache(),
	}
	o.MetricOptions = &controller.MetricOptions{
		MRMetrics: metrics.ManagedRecorder, MRStateMetrics: metrics.StateMetrics, PollStateMetricInterval: s.StateMetricInterval,
	}
	return o
}
