package options

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/gate"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// ManagerSettings are the controller manager's settings.
type ManagerSettings struct {
	Sync           time.Duration
	MetricsAddr    string
	HealthAddr     string
	LeaderElection bool
}

// Manager returns the controller manager options the provider runs with.
// Secret data is never cached: credentials are read through the manager's
// API reader and Secret changes are watched as metadata only. Cached objects
// are trimmed (see trim).
func Manager(s ManagerSettings) ctrl.Options {
	lease, renew := 60*time.Second, 50*time.Second
	return ctrl.Options{
		Cache: cache.Options{
			SyncPeriod:       &s.Sync,
			DefaultTransform: trim,
		},
		Client:                     client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}},
		Metrics:                    metricsserver.Options{BindAddress: s.MetricsAddr},
		HealthProbeBindAddress:     s.HealthAddr,
		LeaderElection:             s.LeaderElection,
		LeaderElectionID:           "crossplane-leader-election-provider-rustfs",
		LeaderElectionResourceLock: resourcelock.LeasesResourceLock,
		LeaseDuration:              &lease,
		RenewDeadline:              &renew,
	}
}

// ControllerSettings are the settings every controller shares.
type ControllerSettings struct {
	Poll             time.Duration
	PollJitter       time.Duration
	MaxReconcileRate int
	NaiveTierList    bool
	// Metrics records managed resource metrics; nil records none.
	Metrics managed.MetricRecorder
}

// New returns the controller options the provider runs with. Management
// policies are always enabled, and the global rate limiter counts the
// reconciles it passes (rustfs_managed_reconciles_total).
func New(log logging.Logger, s ControllerSettings) Options {
	features := &feature.Flags{}
	features.Enable(feature.EnableBetaManagementPolicies)
	o := Options{
		Options: controller.Options{
			Logger:                  log,
			MaxConcurrentReconciles: s.MaxReconcileRate,
			PollInterval:            s.Poll,
			GlobalRateLimiter:       countingLimiter{ratelimiter.NewGlobal(s.MaxReconcileRate)},
			Features:                features,
			Gate:                    new(gate.Gate[schema.GroupVersionKind]),
		},
		PollJitter:    s.PollJitter,
		NaiveTierList: s.NaiveTierList,
		Custody:       custody.NewShared(),
		Identities:    rustfs.NewIdentityCache(),
	}
	if s.Metrics != nil {
		o.MetricOptions = &controller.MetricOptions{MRMetrics: s.Metrics}
	}
	return o
}
