// Command provider runs the RustFS Crossplane provider: the controllers for
// ProviderConfigs, Tiers, Buckets and BucketLifecycles.
package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/go-logr/logr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/customresourcesgate"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	rustfscontroller "github.com/crossplane-contrib/provider-rustfs/internal/controller"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/options"
	"github.com/crossplane-contrib/provider-rustfs/internal/manager"
	"github.com/crossplane-contrib/provider-rustfs/internal/memlimit"
	"github.com/crossplane-contrib/provider-rustfs/internal/profiling"
	"github.com/crossplane-contrib/provider-rustfs/internal/version"
)

// flags are the provider's command line.
type flags struct {
	debug            bool
	leaderElection   bool
	sync             time.Duration
	poll             time.Duration
	pollJitter       time.Duration
	maxReconcileRate int
	metricsAddr      string
	pollStateMetric  time.Duration
	healthAddr       string
	naiveTierList    bool
	tierVerify       time.Duration
	pprofAddr        string
	memoryLimit      string
}

// newApp returns the provider's command line, which parses into f.
func newApp(f *flags) *kingpin.Application {
	app := kingpin.New(filepath.Base(os.Args[0]), "Crossplane provider for RustFS tiers, buckets and lifecycle rules.")
	app.Version(version.Version)
	app.Flag("debug", "Run with debug logging.").Short('d').Envar("DEBUG").BoolVar(&f.debug)
	app.Flag("leader-election", "Use leader election (a Lease in the provider's namespace), so that only one replica reconciles; --no-leader-election when run out of cluster.").Short('l').Default("true").Envar("LEADER_ELECTION").BoolVar(&f.leaderElection)
	app.Flag("sync", "How often the manager's cache resynchronises every watched object.").Short('s').Default("1h").Envar("SYNC_INTERVAL").DurationVar(&f.sync)
	app.Flag("poll", "How often each resource is checked for drift from its desired state.").Default("1m").Envar("POLL_INTERVAL").DurationVar(&f.poll)
	app.Flag("poll-jitter", "Maximum random offset added to each poll, to spread RustFS requests.").Default("0s").Envar("POLL_JITTER").DurationVar(&f.pollJitter)
	app.Flag("max-reconcile-rate", "Maximum reconciles per second across all controllers; also each controller's concurrency.").Default("20").Envar("MAX_RECONCILE_RATE").IntVar(&f.maxReconcileRate)
	app.Flag("metrics-bind-address", "Address the Prometheus metrics endpoint listens on; 0 disables it.").Default(":8080").Envar("METRICS_BIND_ADDRESS").StringVar(&f.metricsAddr)
	app.Flag("poll-state-metric", "How often the managed resource state metrics are recounted; 0 turns them off.").Default("5s").Envar("POLL_STATE_METRIC").DurationVar(&f.pollStateMetric)
	app.Flag("health-probe-bind-address", "Address the /healthz and /readyz probes listen on.").Default(":8081").Envar("HEALTH_PROBE_BIND_ADDRESS").StringVar(&f.healthAddr)
	// Benchmark wiring (hack/bench): hidden, and no environment variable.
	app.Flag("naive-tier-list", "List tiers on every Tier reconcile instead of sharing one list per endpoint. For the benchmark only.").Hidden().BoolVar(&f.naiveTierList)
	app.Flag("tier-verify-interval", "How often, at most, RustFS verifies each Tier's remote (a probe object written there); 0 disables verifies.").Default("10m").Envar("TIER_VERIFY_INTERVAL").DurationVar(&f.tierVerify)
	app.Flag("memory-limit", "Soft limit on the provider's memory (Go heap, stacks and runtime; not the binary's pages), as a quantity such as 48Mi: the collector works harder near it, and it rises to 1.25 times the live heap when that needs more. 0 turns it off; GOMEMLIMIT, when set, wins.").Default("48Mi").Envar("MEMORY_LIMIT").StringVar(&f.memoryLimit)
	app.Flag("pprof-bind-address", "Address Go's /debug/pprof listens on; empty disables it and heap profiling. For benchmarks only.").Hidden().StringVar(&f.pprofAddr)
	return app
}

func parse(args []string) flags {
	var f flags
	kingpin.MustParse(newApp(&f).Parse(args))
	return f
}

func main() {
	f := parse(os.Args[1:])
	log := logger(f.debug)
	limit, err := memoryLimit(f)
	kingpin.FatalIfError(err, "Cannot parse --memory-limit")

	cfg, err := ctrl.GetConfig()
	kingpin.FatalIfError(err, "Cannot get API server rest config")

	mgr, err := ctrl.NewManager(ratelimiter.LimitRESTConfig(cfg, f.maxReconcileRate), managerOptions(f))
	kingpin.FatalIfError(err, "Cannot create controller manager")
	kingpin.FatalIfError(apis.AddToScheme(mgr.GetScheme()), "Cannot add RustFS APIs to scheme")
	kingpin.FatalIfError(apiextensionsv1.AddToScheme(mgr.GetScheme()), "Cannot add CustomResourceDefinition to scheme")
	kingpin.FatalIfError(mgr.AddHealthzCheck("healthz", healthz.Ping), "Cannot add health check")
	kingpin.FatalIfError(mgr.AddReadyzCheck("readyz", healthz.Ping), "Cannot add readiness check")

	events, err := manager.StartEvents(mgr.GetConfig(), mgr.GetHTTPClient(), ctrl.Log.WithName("events"))
	kingpin.FatalIfError(err, "Cannot record events")
	o := controllerOptions(f, log)
	o.Events = events
	kingpin.FatalIfError(customresourcesgate.Setup(mgr, o.Options), "Cannot set up CRD gate controller")
	kingpin.FatalIfError(rustfscontroller.SetupGated(mgr, o), "Cannot set up RustFS controllers")

	ctx := ctrl.SetupSignalHandler()
	kept := memlimit.Keep(ctx, limit, time.Second)
	log.Info("Starting provider", "version", version.Version, "poll", f.poll, "max-reconcile-rate", f.maxReconcileRate, "memory-limit-bytes", limit, "memory-limit-kept", kept)
	err = mgr.Start(ctx)
	// Stopped after the controllers, so their last events are recorded.
	events.Shutdown()
	kingpin.FatalIfError(err, "Cannot start controller manager")
}

func logger(debug bool) logging.Logger {
	zl := manager.Deferred(zap.New(zap.UseDevMode(debug)))
	if debug {
		ctrl.SetLogger(zl)
	} else {
		// controller-runtime is very verbose at info level; give it a
		// no-op logger unless debugging.
		ctrl.SetLogger(logr.Discard())
	}
	return logging.NewLogrLogger(zl.WithName("provider-rustfs"))
}

func managerOptions(f flags) ctrl.Options {
	o := manager.Options(manager.Settings{
		Sync: f.sync, MetricsAddr: f.metricsAddr, HealthAddr: f.healthAddr, LeaderElection: f.leaderElection,
	})
	o.PprofBindAddress = f.pprofAddr
	if f.pprofAddr != "" {
		profiling.Heap()
	}
	return o
}

// memoryLimit returns --memory-limit in bytes; 0 means no limit.
func memoryLimit(f flags) (int64, error) {
	q, err := resource.ParseQuantity(f.memoryLimit)
	if err != nil {
		return 0, errors.Wrapf(err, "--memory-limit=%q: want a quantity such as 48Mi, or 0", f.memoryLimit)
	}
	if q.Sign() < 0 {
		return 0, errors.Errorf("--memory-limit=%q: want a quantity such as 48Mi, or 0, not a negative one", f.memoryLimit)
	}
	return q.Value(), nil
}

func controllerOptions(f flags, log logging.Logger) options.Options {
	return options.New(log, options.ControllerSettings{
		Poll: f.poll, PollJitter: f.pollJitter, MaxReconcileRate: f.maxReconcileRate,
		NaiveTierList: f.naiveTierList, TierVerifyInterval: f.tierVerify, StateMetricInterval: f.pollStateMetric,
	})
}
