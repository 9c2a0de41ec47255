package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// endpoints is how many RustFS endpoints the benchmark's resources use.
const endpoints = 1

// tierListSlack is the acceptance bound's factor on the floor of one tier
// list per endpoint per poll interval.
const tierListSlack = 1.1

// A result is what one run of one list mode measured.
type result struct {
	mode      string
	n         int
	poll      time.Duration
	rate      int
	intervals int
	secrets   int
	verify    time.Duration // the provider's --tier-verify-interval

	create             time.Duration            // creating the 3n objects
	toReady            time.Duration            // first create until all Ready
	kindsReady         map[string]time.Duration // first create until the last of each kind turned Ready
	convergence        map[string]int           // managed RustFS requests by route until all Ready
	convergenceRemote  map[string]int           // tier-target RustFS requests by route until all Ready
	convergenceWrites  int                      // managed RustFS writes until all Ready
	convergenceCounted time.Duration            // from the first create until the requests were counted
	reconciles         map[string]float64       // controller-runtime reconciles by kind until all Ready
	managed            map[string]float64       // reconciles that reached the managed reconciler, by kind, until all Ready
	causes             map[string]float64       // the same by cause, and the deferred passes, until all Ready
	errs               map[string]float64       // reconciles that returned an error (requeued with backoff), by kind, until all Ready
	statusUpdates      map[string]float64       // the API server's status updates (PUT) by kind until all Ready
	cpuReady           time.Duration
	rssReadyPeak       int64
	heapAllocReady     float64
	heapInuseReady     float64

	window           time.Duration      // the steady-state window
	steady           map[string]int     // managed RustFS requests by route in the window
	steadyWrites     int                // managed RustFS writes in the window
	steadyReconciles map[string]float64 // controller-runtime reconciles by kind in the window
	steadyManaged    map[string]float64 // reconciles that reached the managed reconciler, by kind, in the window
	steadyCauses     map[string]float64 // the same by cause, and the deferred passes, in the window
	steadyStatuses   map[string]float64 // the API server's status updates (PUT) by kind in the window
	cpuSteady        time.Duration
	rssSteadyPeak    int64
	rssSteadyMean    int64
	rssPeak          int64     // VmHWM: the largest resident set of the whole run
	rssEnd           procStats // the resident set at the end of the window
	heapAllocSteady  float64
	heapInuseSteady  float64
	runtimeEnd       goRuntime // the provider's Go runtime at the end of the window
	gcsSteady        float64   // collections in the window

	binary  int64                 // the size on disk of the program under test
	sizes   map[string]objectSize // the objects at the end, by kind
	watches map[string]float64    // the API server's open watches at the end, by resource

	burst *burstResult // nil when the burst phase did not run
}

// resources returns how many managed resources the run created.
func (r *result) resources() int { return len(kinds) * r.n }

func sum(m map[string]float64) float64 {
	var s float64
	for _, v := range m {
		s += v
	}
	return s
}

// floor returns the rate limiter's floor: the reconciles that reached the
// managed reconciler (each took one token of the global limiter) divided
// by max-reconcile-rate, and the same with the ideal two reconciles per
// resource (one that creates, one that observes it Ready).
func (r *result) floor() (measured, ideal time.Duration) {
	per := time.Second / time.Duration(r.rate)
	return time.Duration(sum(r.managed)) * per, time.Duration(2*r.resources()) * per
}

// tierListBound is the acceptance bound on steady-state tier lists.
func (r *result) tierListBound() float64 {
	return tierListSlack * endpoints * float64(r.intervals)
}

// statusBound is the acceptance bound on steady-state status updates: one
// per tier verify and tier stats request in the window, none for polls.
func (r *result) statusBound() float64 {
	return float64(verifies(r.steady) + tierStats(r.steady))
}

// problems returns the smoke test's failures: steady-state writes to
// RustFS or status updates, and with the shared view, more tier lists than
// the bound.
func (r *result) problems() []string {
	var p []string
	if r.steadyWrites != 0 {
		p = append(p, fmt.Sprintf("%s: %d RustFS writes in steady state, want 0", r.mode, r.steadyWrites))
	}
	if n, bound := sum(r.steadyStatuses), r.statusBound(); n > bound {
		p = append(p, fmt.Sprintf("%s: %.0f status updates in steady state, want at most %.0f (a poll that changes nothing writes nothing; "+
			"a tier verify or tier stats may record a result)", r.mode, n, bound))
	}
	if n := tierLists(r.steady); r.mode == "shared" && float64(n) > r.tierListBound() {
		p = append(p, fmt.Sprintf("%s: %d tier lists in %d poll intervals, want at most %.1f (%.1f x %d endpoint x %d intervals)",
			r.mode, n, r.intervals, r.tierListBound(), tierListSlack, endpoints, r.intervals))
	}
	return append(p, r.healthProblems()...)
}

func mib(b float64) string { return fmt.Sprintf("%.1f MiB", b/(1<<20)) }

// routes renders counts as "route=n, ..." sorted by route.
func routes(counts map[string]int) string { return joinSorted(counts, "%s=%d") }

// joinSorted renders the positive values of m, each as format of its key
// and value, sorted by key and comma separated; "none" when there are none.
func joinSorted[V int | float64](m map[string]V, format string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf(format, k, m[k]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// perKind renders per-resource averages by kind, and the overall one.
func perKind(m map[string]float64, n int) string {
	parts := make([]string, 0, len(kinds)+1)
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %.2f", k, m[k]/float64(n)))
	}
	parts = append(parts, fmt.Sprintf("all %.2f", sum(m)/float64(len(kinds)*n)))
	return strings.Join(parts, ", ")
}

// printReport writes a report of the runs, one column per mode.
func printReport(out io.Writer, rs []*result) {
	w := tabwriter.NewWriter(out, 2, 8, 2, ' ', 0)
	row := func(name string, f func(*result) string) {
		cells := []string{name}
		for _, r := range rs {
			cells = append(cells, f(r))
		}
		fmt.Fprintln(w, strings.Join(cells, "\t"))
	}
	row("", func(r *result) string { return "mode " + r.mode })
	for _, line := range lines(len(rs) > 0 && rs[0].mode == floorMode) {
		row(line.name, line.value)
	}
	_ = w.Flush()
	printRatios(out, rs)
}

// printRatios writes the naive/shared ratios of tier lists when both modes
// ran.
func printRatios(out io.Writer, rs []*result) {
	by := map[string]*result{}
	for _, r := range rs {
		by[r.mode] = r
	}
	s, n := by["shared"], by["naive"]
	if s == nil || n == nil {
		return
	}
	ratio := func(a, b int) string {
		if b == 0 {
			return "n/a (shared made none)"
		}
		return fmt.Sprintf("%.0f", float64(a)/float64(b))
	}
	fmt.Fprintf(out, "\nnaive/shared tier lists: steady state %d/%d = %s; convergence %d/%d = %s\n",
		tierLists(n.steady), tierLists(s.steady), ratio(tierLists(n.steady), tierLists(s.steady)),
		tierLists(n.convergence), tierLists(s.convergence), ratio(tierLists(n.convergence), tierLists(s.convergence)))
}
