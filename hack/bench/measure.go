package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"k8s.io/client-go/rest"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// httpClient scrapes the provider's metrics.
var httpClient = &http.Client{Timeout: 30 * time.Second}

// controllers are the controller names of the managed resource kinds.
var controllers = map[string]string{
	v1alpha1.TierKind:            "managed/tier.rustfs.m.crossplane.io",
	v1alpha1.BucketKind:          "managed/bucket.rustfs.m.crossplane.io",
	v1alpha1.BucketLifecycleKind: "managed/bucketlifecycle.rustfs.m.crossplane.io",
}

// plurals are the API server's resource names of the kinds.
var plurals = map[string]string{
	v1alpha1.TierKind: "tiers", v1alpha1.BucketKind: "buckets", v1alpha1.BucketLifecycleKind: "bucketlifecycles",
}

// apiServerMetrics returns a function that scrapes the API server's
// /metrics as an administrator.
func apiServerMetrics(cfg *rest.Config) (func(context.Context) (samples, error), error) {
	c, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, errors.Wrap(err, "cannot create a client for the API server's metrics")
	}
	url := strings.TrimSuffix(cfg.Host, "/") + "/metrics"
	return func(ctx context.Context) (samples, error) { return scrape(ctx, c, url) }, nil
}

// A snapshot is every counter the benchmark reads at one moment.
type snapshot struct {
	at         time.Time
	proc       procStats
	reconciles map[string]float64 // controller_runtime_reconcile_total by kind
	managed    map[string]float64 // rustfs_managed_reconciles_total by kind
	causes     map[string]float64 // the same by cause, and rustfs_deferred_reconciles_total as "deferred"
	errs       map[string]float64 // controller_runtime_reconcile_errors_total by kind
	statuses   map[string]float64 // the API server's status updates (PUT) by kind
	heapAlloc  float64
	heapInuse  float64
	runtime    goRuntime
}

// A goRuntime is what the provider's Go runtime reports besides its heap.
type goRuntime struct {
	stacks     float64 // go_memstats_stack_inuse_bytes
	goroutines float64 // go_goroutines
	gcs        float64 // go_gc_duration_seconds_count: collections so far
	limit      float64 // go_gc_gomemlimit_bytes: the soft memory limit
}

// snap reads the provider's /proc entry and metrics and the API server's
// metrics.
func (r *run) snap(ctx context.Context) (snapshot, error) {
	s := snapshot{at: time.Now(), reconciles: map[string]float64{}, managed: map[string]float64{}, errs: map[string]float64{}, statuses: map[string]float64{}}
	var err error
	if s.proc, err = readProc(r.provider.Pid()); err != nil {
		return s, err
	}
	pm, err := scrape(ctx, httpClient, r.metrics)
	if err != nil {
		return s, err
	}
	am, err := r.apiStats(ctx)
	if err != nil {
		return s, err
	}
	updates := am.by("apiserver_request_total", "resource", map[string]string{"verb": "PUT", "subresource": "status", "group": v1alpha1.Group})
	for _, k := range kinds {
		s.reconciles[k] = pm.sum("controller_runtime_reconcile_total", map[string]string{"controller": controllers[k]})
		s.managed[k] = pm.sum("rustfs_managed_reconciles_total", map[string]string{"controller": controllers[k]})
		s.statuses[k] = updates[plurals[k]]
		s.errs[k] = pm.sum("controller_runtime_reconcile_errors_total", map[string]string{"controller": controllers[k]})
	}
	s.causes = pm.by("rustfs_managed_reconciles_total", "cause", nil)
	s.causes["deferred"] = pm.sum("rustfs_deferred_reconciles_total", nil)
	s.heapAlloc = pm.sum("go_memstats_heap_alloc_bytes", nil)
	s.heapInuse = pm.sum("go_memstats_heap_inuse_bytes", nil)
	s.runtime = goRuntime{
		stacks: pm.sum("go_memstats_stack_inuse_bytes", nil), goroutines: pm.sum("go_goroutines", nil),
		gcs: pm.sum("go_gc_duration_seconds_count", nil), limit: pm.sum("go_gc_gomemlimit_bytes", nil),
	}
	return s, nil
}

// converge creates the resources and waits until all are Ready, recording
// what that took.
func (r *run) converge(ctx context.Context, res *result) error {
	tctx, cancel := context.WithCancel(ctx)
	r.untrack = cancel
	t, err := track(tctx, r.cp.Config, r.cp.Client.Scheme(), r.n)
	if err != nil {
		return err
	}
	r.tracker = t
	counting := time.Now()
	r.local.ResetCounters()
	r.remote.ResetCounters()
	before, err := r.snap(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.out, "  creating %d Tiers, %d Buckets and %d BucketLifecycles\n", r.n, r.n, r.n)
	if err := r.createAll(ctx); err != nil {
		return err
	}
	res.create = time.Since(before.at)
	readyAt, err := t.wait(ctx, r.out, before.at.Add(r.timeout))
	if err != nil {
		return err
	}
	after, err := r.snap(ctx)
	if err != nil {
		return err
	}
	res.toReady = readyAt.Sub(before.at)
	res.kindsReady = t.kindsReady(before.at)
	res.convergence, res.convergenceRemote = r.local.Counts(), r.remote.Counts()
	res.convergenceWrites = r.local.Writes()
	res.convergenceCounted = time.Since(counting)
	res.reconciles, res.statusUpdates = delta(after.reconciles, before.reconciles), delta(after.statuses, before.statuses)
	res.managed, res.errs = delta(after.managed, before.managed), delta(after.errs, before.errs)
	res.causes = delta(after.causes, before.causes)
	res.cpuReady = after.proc.cpu - before.proc.cpu
	res.rssReadyPeak, _ = r.rss.window(before.at, after.at)
	res.heapAllocReady, res.heapInuseReady = after.heapAlloc, after.heapInuse
	return nil
}

// steady counts requests, writes and reconciles over the steady-state
// window of r.intervals poll intervals.
func (r *run) steady(ctx context.Context, res *result) error {
	r.local.ResetCounters()
	before, err := r.snap(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.out, "  steady state: counting for %d poll intervals (%s)\n", r.intervals, time.Duration(r.intervals)*r.poll)
	select {
	case <-time.After(time.Duration(r.intervals) * r.poll):
	case <-ctx.Done():
		return ctx.Err()
	}
	res.steady, res.steadyWrites = r.local.Counts(), r.local.Writes()
	after, err := r.snap(ctx)
	if err != nil {
		return err
	}
	res.window = after.at.Sub(before.at)
	res.steadyReconciles = delta(after.reconciles, before.reconciles)
	res.steadyManaged = delta(after.managed, before.managed)
	res.steadyCauses = delta(after.causes, before.causes)
	res.steadyStatuses = delta(after.statuses, before.statuses)
	res.cpuSteady = after.proc.cpu - before.proc.cpu
	res.rssSteadyPeak, res.rssSteadyMean = r.rss.window(before.at, after.at)
	res.rssPeak, res.rssEnd = after.proc.peak, after.proc
	res.heapAllocSteady, res.heapInuseSteady = after.heapAlloc, after.heapInuse
	res.runtimeEnd = after.runtime
	res.gcsSteady = after.runtime.gcs - before.runtime.gcs
	return nil
}

func delta(after, before map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range after {
		out[k] = v - before[k]
	}
	return out
}

// tierLists returns the tier list requests among counts.
func tierLists(counts map[string]int) int { return counts[rustfstest.RouteListTiers] }
