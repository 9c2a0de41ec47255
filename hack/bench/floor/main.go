// Command floor is what every controller-runtime and crossplane-runtime
// provider must run for the provider's resources, and nothing more: the
// benchmark's measure of the framework's own memory (`bin/bench -floor`,
// docs/performance.md "The framework's floor").
//
// It builds the controller manager with the provider's own options
// (internal/manager: managed fields stripped, Secrets uncached), scheme,
// client rate limit, soft memory limit (internal/memlimit,
// --memory-limit, default 48Mi as in the provider) and heap profiling
// (internal/profiling: off without --pprof-bind-address), starts
// crossplane-runtime's CRD gate, and, once the CRDs are established, one
// controller per kind the provider caches, named as the provider names
// them. Each controller reads its object from the cache and asks to be
// called again after --poll; it never writes and never reaches RustFS. The
// provider's watches are kept (Secrets and Namespaces as metadata,
// ProviderConfigUsages), its field indexes, event recorder and metrics are
// not. crossplane-runtime's managed and ProviderConfig reconcilers are
// built for each kind and never run, so that the binary links what the
// provider's links.
package main

import (
	"flag"
	"io"
	"os"
	"time"

	"github.com/go-logr/logr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/internal/manager"
	"github.com/crossplane-contrib/provider-rustfs/internal/memlimit"
	"github.com/crossplane-contrib/provider-rustfs/internal/profiling"
)

// flags are the floor program's command line: the provider's flags that
// shape what the framework holds.
type flags struct {
	poll        time.Duration
	rate        int
	sync        time.Duration
	metricsAddr string
	healthAddr  string
	pprofAddr   string
	memoryLimit int64
}

// parse parses args; env looks up the environment (MEMORY_LIMIT, as the
// provider reads it).
func parse(args []string, env func(string) string) (flags, error) {
	var f flags
	limit := "48Mi"
	if v := env("MEMORY_LIMIT"); v != "" {
		limit = v
	}
	fs := flag.NewFlagSet("floor", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.DurationVar(&f.poll, "poll", time.Minute, "how often each object is read again, as the provider polls")
	fs.IntVar(&f.rate, "max-reconcile-rate", 20, "the client's rate limit and each controller's workers, as in the provider")
	fs.DurationVar(&f.sync, "sync", time.Hour, "how often the cache resynchronises")
	fs.StringVar(&f.metricsAddr, "metrics-bind-address", ":8080", "address of the Prometheus metrics endpoint; 0 disables it")
	fs.StringVar(&f.healthAddr, "health-probe-bind-address", "0", "address of the health probes; 0 disables them")
	fs.StringVar(&f.pprofAddr, "pprof-bind-address", "", "address of Go's /debug/pprof; empty disables it")
	fs.StringVar(&limit, "memory-limit", limit, "soft memory limit as in the provider (a quantity such as 48Mi; 0 turns it off; MEMORY_LIMIT sets the default)")
	if err := fs.Parse(args); err != nil {
		return f, errors.Wrap(err, "cannot parse the command line")
	}
	if f.rate < 1 {
		return f, errors.Errorf("--max-reconcile-rate=%d: want at least 1", f.rate)
	}
	q, err := resource.ParseQuantity(limit)
	if err != nil || q.Sign() < 0 {
		return f, errors.Errorf("--memory-limit=%q: want a quantity such as 48Mi, or 0", limit)
	}
	f.memoryLimit = q.Value()
	return f, nil
}

func main() {
	f, err := parse(os.Args[1:], os.Getenv)
	if err != nil {
		fatal(err)
	}
	// As the provider: controller-runtime's logger discards.
	ctrl.SetLogger(logr.Discard())
	if err := run(f); err != nil {
		fatal(err)
	}
}

func run(f flags) error {
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return errors.Wrap(err, "cannot get the API server's configuration")
	}
	o := manager.Options(manager.Settings{Sync: f.sync, MetricsAddr: f.metricsAddr, HealthAddr: f.healthAddr})
	o.PprofBindAddress = f.pprofAddr
	if f.pprofAddr != "" {
		profiling.Heap()
	}
	mgr, err := ctrl.NewManager(ratelimiter.LimitRESTConfig(cfg, f.rate), o)
	if err != nil {
		return errors.Wrap(err, "cannot create the controller manager")
	}
	if err := apis.AddToScheme(mgr.GetScheme()); err != nil {
		return errors.Wrap(err, "cannot add the RustFS APIs to the scheme")
	}
	if err := apiextensionsv1.AddToScheme(mgr.GetScheme()); err != nil {
		return errors.Wrap(err, "cannot add CustomResourceDefinitions to the scheme")
	}
	if err := setup(mgr, f); err != nil {
		return err
	}
	ctx := ctrl.SetupSignalHandler()
	memlimit.Keep(ctx, f.memoryLimit, time.Second)
	return errors.Wrap(mgr.Start(ctx), "cannot run the controller manager")
}

func fatal(err error) {
	_, _ = os.Stderr.WriteString("floor: " + err.Error() + "\n")
	os.Exit(1)
}
