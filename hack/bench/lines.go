package main

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// A line is one row of the report.
type line struct {
	name  string
	value func(*result) string
}

func secs(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// lines are the rows of the report, in order; of a -floor run, only those
// named in floorLines.
func lines(floor bool) []line {
	all := append(append(convergenceLines(), steadyLines()...), burstLines()...)
	if !floor {
		return all
	}
	var out []line
	for _, l := range all {
		if floorLines[l.name] {
			out = append(out, l)
		}
	}
	return out
}

// floorLines are the rows that describe a -floor run: what it holds and
// its memory. The floor program makes no RustFS request and reconciles
// only to read, so the provider's request and reconcile rows do not apply;
// the RustFS row shows that it made none.
var floorLines = map[string]bool{
	"managed resources": true, "unrelated Secrets in the cluster": true, "poll / max-reconcile-rate": true,
	"creating the objects": true, "RSS peak until Ready": true, "steady-state window": true,
	"RustFS requests in the window": true, "controller-runtime reconciles in the window, per resource": true,
	"CPU in the window": true, "RSS in the window: mean / peak": true, "RSS at the end: anonymous + file-backed (the binary)": true,
	"RSS peak of the run (VmHWM)": true, "Go heap alloc / inuse at the end": true,
	"Go stacks / goroutines at the end; collections in the window; soft memory limit": true,
	"binary on disk": true, "objects at the end, mean JSON size without managed fields": true,
	"API server watches at the end (incl. the benchmark's and its own)": true,
}

// convergenceLines describe the run and the way to all Ready.
func convergenceLines() []line {
	return []line{
		{"managed resources", func(r *result) string {
			return fmt.Sprintf("%d (%d Tiers, %d Buckets, %d BucketLifecycles)", r.resources(), r.n, r.n, r.n)
		}},
		{"unrelated Secrets in the cluster", func(r *result) string {
			return fmt.Sprintf("%d x 64 KiB = %s (never read)", r.secrets, mib(float64(r.secrets*noiseSize)))
		}},
		{"poll / max-reconcile-rate", func(r *result) string { return fmt.Sprintf("%s / %d per second", r.poll, r.rate) }},
		{"creating the objects", func(r *result) string { return secs(r.create) }},
		{"time until all Ready", func(r *result) string { return secs(r.toReady) }},
		{"time until the last of each kind Ready", func(r *result) string {
			parts := make([]string, 0, len(kinds))
			for _, k := range kinds {
				parts = append(parts, fmt.Sprintf("%s %s", k, secs(r.kindsReady[k])))
			}
			return strings.Join(parts, ", ")
		}},
		{"reconciles reaching the managed reconciler, per resource", func(r *result) string { return perKind(r.managed, r.n) }},
		{"reconciles by cause, per resource (deferred: sent back for a token)", func(r *result) string { return perCause(r.causes, r.resources()) }},
		{"managed reconciler status updates (PUT), per resource", func(r *result) string { return perKind(r.statusUpdates, r.n) }},
		{"reconciles that returned an error (retried with backoff)", func(r *result) string { return counts(r.errs) }},
		{"controller-runtime reconciles (incl. rate-limited passes), per resource", func(r *result) string { return perKind(r.reconciles, r.n) }},
		{"rate-limiter floor (measured / ideal 2 per resource)", func(r *result) string {
			m, i := r.floor()
			return fmt.Sprintf("%s / %s", secs(m), secs(i))
		}},
		{"time until all Ready / floor (measured / ideal)", func(r *result) string {
			m, i := r.floor()
			return fmt.Sprintf("%.2f / %.2f", r.toReady.Seconds()/m.Seconds(), r.toReady.Seconds()/i.Seconds())
		}},
		{"RustFS requests until Ready", func(r *result) string { return routes(r.convergence) }},
		{"RustFS requests until Ready, by kind", func(r *result) string {
			return requestCount{routes: r.convergence, writes: r.convergenceWrites, window: r.convergenceCounted}.String()
		}},
		{"tier-target RustFS requests until Ready", func(r *result) string { return routes(r.convergenceRemote) }},
		{"RustFS writes until Ready", func(r *result) string { return fmt.Sprint(r.convergenceWrites) }},
		{"CPU until Ready", func(r *result) string { return secs(r.cpuReady) }},
		{"RSS peak until Ready", func(r *result) string { return mib(float64(r.rssReadyPeak)) }},
		{"Go heap alloc / inuse when Ready", func(r *result) string {
			return mib(r.heapAllocReady) + " / " + mib(r.heapInuseReady)
		}},
	}
}

// steadyLines describe the steady state and the memory at the end.
func steadyLines() []line {
	return []line{
		{"steady-state window", func(r *result) string { return fmt.Sprintf("%d poll intervals, %s", r.intervals, secs(r.window)) }},
		{"RustFS requests in the window", func(r *result) string { return routes(r.steady) }},
		{"tier lists in the window (bound)", func(r *result) string {
			return fmt.Sprintf("%d (%.1f)", tierLists(r.steady), r.tierListBound())
		}},
		{"lifecycle GETs in the window (floor)", func(r *result) string {
			return fmt.Sprintf("%d (%d)", r.steady[rustfstest.RouteGetLifecycle], r.n*r.intervals)
		}},
		{"tier verifies / tier stats in the window (bounds)", func(r *result) string {
			return fmt.Sprintf("%d / %d (%d / %d)", verifies(r.steady), tierStats(r.steady), r.verifyBound(), r.statsBound())
		}},
		{"RustFS writes in the window", func(r *result) string { return fmt.Sprint(r.steadyWrites) }},
		{"managed reconciler status updates (PUT) in the window, per resource", func(r *result) string { return perKind(r.steadyStatuses, r.n) }},
		{"reconciles reaching the managed reconciler in the window, per resource", func(r *result) string { return perKind(r.steadyManaged, r.n) }},
		{"reconciles by cause in the window, per resource", func(r *result) string { return perCause(r.steadyCauses, r.resources()) }},
		{"controller-runtime reconciles in the window, per resource", func(r *result) string { return perKind(r.steadyReconciles, r.n) }},
		{"CPU in the window", func(r *result) string {
			return fmt.Sprintf("%s (%.1f%% of one core)", secs(r.cpuSteady), 100*r.cpuSteady.Seconds()/r.window.Seconds())
		}},
		{"RSS in the window: mean / peak", func(r *result) string {
			return mib(float64(r.rssSteadyMean)) + " / " + mib(float64(r.rssSteadyPeak))
		}},
		{"RSS at the end: anonymous + file-backed (the binary)", func(r *result) string {
			return fmt.Sprintf("%s + %s", mib(float64(r.rssEnd.anon)), mib(float64(r.rssEnd.file)))
		}},
		{"RSS peak of the run (VmHWM)", func(r *result) string { return mib(float64(r.rssPeak)) }},
		{"Go heap alloc / inuse at the end", func(r *result) string {
			return mib(r.heapAllocSteady) + " / " + mib(r.heapInuseSteady)
		}},
		{"Go stacks / goroutines at the end; collections in the window; soft memory limit", func(r *result) string {
			limit := "none"
			if l := r.runtimeEnd.limit; l > 0 && l < math.MaxInt64 {
				limit = mib(l)
			}
			return fmt.Sprintf("%s / %.0f; %.0f; %s", mib(r.runtimeEnd.stacks), r.runtimeEnd.goroutines, r.gcsSteady, limit)
		}},
		{"binary on disk", func(r *result) string { return fmt.Sprintf("%d B", r.binary) }},
		{"objects at the end, mean JSON size without managed fields", func(r *result) string { return sizesLine(r.sizes) }},
		{"API server watches at the end (incl. the benchmark's and its own)", func(r *result) string { return watchesLine(r.watches) }},
	}
}

// counts renders counts by kind and their sum.
func counts(m map[string]float64) string {
	parts := make([]string, 0, len(kinds)+1)
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %.0f", k, m[k]))
	}
	return strings.Join(append(parts, fmt.Sprintf("all %.0f", sum(m))), ", ")
}

// perCause renders reconciles by cause as averages over n resources.
func perCause(m map[string]float64, n int) string {
	per := map[string]float64{}
	for k, v := range m {
		per[k] = v / float64(n)
	}
	return joinSorted(per, "%s %.2f")
}
