// Command bench measures the provider at scale: it starts etcd and
// kube-apiserver with the provider's CRDs, two RustFS emulators in its own
// process (the managed RustFS and the remote the tiers point at, so that
// their request counters are readable), and the provider binary
// (bin/provider) as a process; creates N Tiers, N Buckets and N
// BucketLifecycles; and reports the time until all are Ready, the RustFS
// requests by route until then and over three steady-state poll
// intervals, the writes in steady state, the provider's resident set
// (/proc/PID/status) and Go heap (its /metrics), its CPU time
// (/proc/PID/stat), the reconciles per resource and the rate limiter's
// floor. After the steady state it creates -new Buckets (default N) while
// every resource polls and reports their time to Ready and the RustFS
// requests, by kind and per second, until then (the burst phase);
// -pprof saves and summarises the provider's heap profile. It runs the
// shared tier list and --naive-tier-list, each against a fresh API server,
// emulators and provider, and prints the ratio of their tier lists.
//
// With -floor it runs bin/floor (hack/bench/floor), the framework alone,
// instead of the provider: it writes the objects as the provider leaves
// them once Ready (status, annotations, ProviderConfigUsages), so that the
// floor program caches the same objects, and reports the same memory
// lines, the binary's size, the objects' sizes and the open watches of
// both (docs/performance.md, "The framework's floor").
//
// With --smoke it exits 1 unless the steady state made no RustFS write and
// no more status updates than tier verifies and tier stats, and,
// with the shared list, at most 1.1 tier lists per endpoint per poll
// interval, and the tier verifies and tier-stats requests stayed within
// what --tier-verify-interval and the poll interval allow. It asserts
// counts, never times.
//
// Run it with `make bench` (N=1000) or `make bench-smoke` (N=20).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// flags are the benchmark's command line.
type flags struct {
	root        string
	n           int
	poll        time.Duration
	rate        int
	intervals   int
	settle      time.Duration
	timeout     time.Duration
	modes       string
	smoke       bool
	keep        bool
	secrets     int
	verify      time.Duration
	newBuckets  int
	pprof       bool
	floor       bool
	providerEnv []string

	// The side-by-side run (-peer).
	peer     string
	peerCRDs string
	window   time.Duration
	existing int
}

// noiseSize is the size of each unrelated Secret.
const noiseSize = 64 << 10

func parseFlags() flags {
	var f flags
	var env string
	flag.StringVar(&f.root, "root", ".", "repository root: where bin/provider and package/provider/crds are")
	flag.IntVar(&f.n, "n", 1000, "how many Tiers, Buckets and BucketLifecycles (each) to create")
	flag.DurationVar(&f.poll, "poll", 2*time.Minute, "the provider's --poll")
	flag.IntVar(&f.rate, "rate", 30, "the provider's --max-reconcile-rate; at least 3N per poll interval, or the steady state cannot poll every resource")
	flag.IntVar(&f.intervals, "intervals", 3, "steady-state poll intervals to count over")
	flag.DurationVar(&f.settle, "settle", 0, "wait after all are Ready before counting the steady state (default one poll interval)")
	flag.DurationVar(&f.timeout, "timeout", 30*time.Minute, "how long to wait for all resources to become Ready")
	flag.StringVar(&f.modes, "modes", "shared,naive", "tier list modes to run, comma separated: shared, naive")
	flag.DurationVar(&f.verify, "tier-verify-interval", 10*time.Minute, "the provider's --tier-verify-interval")
	flag.BoolVar(&f.smoke, "smoke", false, "exit 1 on steady-state writes, too many shared tier lists, or more tier verifies and stats than the intervals allow")
	flag.IntVar(&f.secrets, "unrelated-secrets", 200, "Secrets of 64 KiB that no resource uses, created before the provider starts")
	flag.IntVar(&f.newBuckets, "new", -1, "Buckets to create after the steady state while every resource polls, timed to Ready (default N; 0 skips)")
	flag.BoolVar(&f.pprof, "pprof", false, "save the provider's heap profile at the end of the steady state to _output/bench-heap-MODE.pprof and print its top")
	flag.BoolVar(&f.floor, "floor", false, "run bin/floor, the framework alone, instead of the provider, on objects written as the provider leaves them; reports memory only (docs/performance.md)")
	flag.BoolVar(&f.keep, "keep", false, "keep each run's work directory (kubeconfig, provider log)")
	flag.StringVar(&f.peer, "peer", "", "side by side: run this provider binary (vshn/provider-minio's command line and CRDs) after provider-rustfs, each at its default flags, on -n new Buckets, and print both (docs/performance.md)")
	flag.StringVar(&f.peerCRDs, "peer-crds", "", "with -peer: the directory of the peer's CRDs")
	flag.DurationVar(&f.window, "window", 180*time.Second, "with -peer: how long to measure after the first create")
	flag.IntVar(&f.existing, "existing", 0, "with -peer: Buckets created and Ready before the measured creates, polling during them")
	flag.StringVar(&env, "provider-env", "", "extra environment for the provider, comma separated (for example GOGC=50)")
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if err := f.validate(set); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(2)
	}
	if f.newBuckets < 0 {
		f.newBuckets = f.n
	}
	if f.floor {
		f.newBuckets, f.modes = 0, floorMode
	}
	if f.settle == 0 {
		f.settle = f.poll
	}
	if env != "" {
		f.providerEnv = strings.Split(env, ",")
	}
	return f
}

func main() {
	f := parseFlags()
	// The benchmark's own informers log through controller-runtime.
	ctrl.SetLogger(logr.Discard())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := bench(ctx, f, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

// bench runs each mode in turn, prints the report and, with --smoke,
// fails on a broken bound.
func bench(ctx context.Context, f flags, out io.Writer) error {
	if _, err := os.Stat(f.binary()); err != nil {
		return errors.Errorf("%s is missing: run `make bench`, which builds it (with -floor in BENCHFLAGS, bin/floor too)", f.binary())
	}
	if f.peer != "" {
		return compare(ctx, f, out)
	}
	var rs []*result
	for _, m := range strings.Split(f.modes, ",") {
		if !f.floor && m != "shared" && m != "naive" {
			return errors.Errorf("unknown mode %q: use shared or naive", m)
		}
		fmt.Fprintf(out, "mode %s: N=%d, poll %s, max-reconcile-rate %d\n", m, f.n, f.poll, f.rate)
		r := &run{flags: f, naive: m == "naive", out: out}
		res, err := r.execute(ctx)
		if err != nil {
			return errors.Wrapf(err, "mode %s", m)
		}
		rs = append(rs, res)
	}
	fmt.Fprintln(out)
	printReport(out, rs)
	if !f.smoke {
		return nil
	}
	var p []string
	for _, r := range rs {
		p = append(p, r.problems()...)
	}
	if len(p) > 0 {
		return errors.New("smoke test failed:\n  " + strings.Join(p, "\n  "))
	}
	fmt.Fprintln(out, "smoke test passed: no steady-state writes; status updates, tier lists, verifies and stats within the bounds")
	return nil
}
