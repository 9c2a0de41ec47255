// Package options holds the settings every controller of the provider shares
// and the managed reconciler options derived from them: logging, polling,
// the global rate limiter (which counts the reconciles it passes,
// limiter.go), management policies, the custody finalizer that replaces
// crossplane-runtime's, and the shared RustFS identity cache. The
// controller manager's own options are in internal/manager.
package options

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/metrics"
)

// Options configure the provider's controllers.
type Options struct {
	controller.Options

	// Limiter admits the reconciles of every controller (Limit); it is
	// also the GlobalRateLimiter.
	Limiter *Limiter

	// PollJitter is the maximum random delay added to each poll.
	PollJitter time.Duration

	// NaiveTierList makes every Tier reconcile list the tiers itself
	// instead of sharing one list per endpoint. Benchmark wiring: only the
	// benchmark sets it (the provider's hidden --naive-tier-list).
	NaiveTierList bool

	// TierVerifyInterval is how often, at most, each Tier's tier is
	// verified (a probe object written on the remote); 0 disables
	// verifies (--tier-verify-interval, docs/operability.md).
	TierVerifyInterval time.Duration

	// Custody is what the controllers of one manager share for the
	// tenancy rules: field indexes and the check of Namespace access.
	Custody *custody.Shared

	// Upgrade, when set, runs before every gated setup and must succeed
	// first: it creates custody records from v0.2 status once (package
	// upgrade), so that no claim precedes them.
	Upgrade func() error

	// Identities is the RustFS identity cache every client of the
	// manager shares (NewClient), so that one configuration costs one
	// admin info request, and a configuration refused that call at an
	// endpoint learns the deployment ID another one was told there.
	Identities *rustfs.IdentityCache

	// Events, when set, is the broadcaster the controllers record Events
	// through (Recorder; manager.StartEvents, whose correlation caches are
	// smaller than the manager's). When nil they use the manager's.
	Events record.EventBroadcaster
}

// A recorderSource is the part of a manager Recorder reads. Its legacy
// recorder (deprecated in controller-runtime) is what crossplane-runtime's
// event package still takes.
type recorderSource interface {
	GetScheme() *runtime.Scheme
	GetEventRecorderFor(name string) record.EventRecorder
}

// Recorder returns the event recorder of the controller name.
func (o Options) Recorder(mgr recorderSource, name string) event.Recorder {
	if o.Events != nil {
		return event.NewAPIRecorder(o.Events.NewRecorder(mgr.GetScheme(), corev1.EventSource{Component: name}))
	}
	return event.NewAPIRecorder(mgr.GetEventRecorderFor(name))
}

// NewClient returns a RustFS client for c that shares o's identity cache
// and reports every request it sends to the provider's request metrics.
func (o Options) NewClient(c rustfs.Config) (*rustfs.Client, error) {
	return rustfs.New(c, rustfs.WithIdentityCache(o.Identities), rustfs.WithRequestObserver(metrics.Requests))
}

// Limit returns r admitted by o's Limiter under the controller name.
func (o Options) Limit(name string, r reconcile.Reconciler) reconcile.Reconciler {
	return o.Limiter.Reconciler(name, r)
}

// LimitBackground returns r admitted by o's Limiter under the controller
// name only when no other reconcile waits for a token (Limiter.Background).
func (o Options) LimitBackground(name string, r reconcile.Reconciler) reconcile.Reconciler {
	return o.Limiter.Background(name, r)
}

// Managed returns the managed reconciler options every kind uses. Management
// policies are always enabled: the kinds default to a Retain-only policy
// set, which the reconciler rejects when the feature is off.
func (o Options) Managed(mgr ctrl.Manager, name string) []managed.ReconcilerOption {
	opts := []managed.ReconcilerOption{
		managed.WithLogger(o.Logger.WithValues("controller", name)),
		managed.WithPollInterval(o.PollInterval),
		managed.WithRecorder(o.Recorder(mgr, name)),
		managed.WithManagementPolicies(),
		managed.WithFinalizer(custody.NewFinalizer(mgr.GetClient())),
	}
	writes := Writes{}
	if o.PollJitter > 0 {
		opts = append(opts, managed.WithPollJitterHook(o.PollJitter))
	}
	if o.MetricOptions != nil {
		opts = append(opts, managed.WithMetricRecorder(o.MetricOptions.MRMetrics))
	}
	if o.Features != nil && o.Features.Enabled(feature.EnableAlphaChangeLogs) && o.ChangeLogOptions != nil {
		writes.Next = o.ChangeLogOptions.ChangeLogger
	}
	return append(opts, managed.WithChangeLogger(writes))
}

// Gated registers setup to run once the CRDs of every kind in gvks are
// established (the safe-start capability). A setup error after start
// cannot be returned to anyone, so it stops the process.
func (o Options) Gated(name string, setup func() error, gvks ...schema.GroupVersionKind) {
	gvks = append(gvks, v1alpha1.CustodyRecordGroupVersionKind)
	o.Gate.Register(func() {
		if o.Upgrade != nil {
			if err := o.Upgrade(); err != nil {
				panic(errors.Wrap(err, "cannot create custody records from v0.2 status"))
			}
		}
		if err := setup(); err != nil {
			panic(errors.Wrapf(err, "cannot set up %s controller", name))
		}
	}, gvks...)
}
