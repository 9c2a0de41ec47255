package main

import (
	"fmt"
	"io"
	"time"
)

// printSideBySide prints the contenders' figures as a Markdown table, with
// the first contender's ratio to the second where a ratio means something.
func printSideBySide(out io.Writer, rs []*sideResult) {
	fmt.Fprintf(out, "\n| |")
	for _, r := range rs {
		fmt.Fprintf(out, " %s |", r.name)
	}
	if len(rs) == 2 {
		fmt.Fprintf(out, " ratio |")
	}
	fmt.Fprintf(out, "\n|---|")
	for range len(rs) + min(1, len(rs)/2) {
		fmt.Fprintf(out, "---|")
	}
	fmt.Fprintln(out)
	for _, row := range sideRows() {
		fmt.Fprintf(out, "| %s |", row.name)
		for _, r := range rs {
			fmt.Fprintf(out, " %s |", row.show(r))
		}
		if len(rs) == 2 {
			fmt.Fprintf(out, " %s |", ratio(row.value, rs[0], rs[1]))
		}
		fmt.Fprintln(out)
	}
}

// A sideRow is one line of the side-by-side table.
type sideRow struct {
	name  string
	show  func(*sideResult) string
	value func(*sideResult) float64 // nil: no ratio
}

func sideRows() []sideRow {
	mem := func(f func(*sideResult) int64) sideRow {
		return sideRow{show: func(r *sideResult) string { return mib(float64(f(r))) }, value: func(r *sideResult) float64 { return float64(f(r)) }}
	}
	at := func(q float64) func(*sideResult) float64 {
		return func(r *sideResult) float64 { return quantile(r.ready, q).Seconds() }
	}
	rows := []sideRow{
		mem(func(r *sideResult) int64 { return r.idleRSS }),
		mem(func(r *sideResult) int64 { return r.peakRSS }),
		mem(func(r *sideResult) int64 { return r.settledRSS }),
		{show: func(r *sideResult) string { return fmt.Sprintf("%.1f", r.cpu.Seconds()) }, value: func(r *sideResult) float64 { return r.cpu.Seconds() }},
		{show: func(r *sideResult) string { return fmt.Sprintf("%.0f", r.reconciles) }, value: func(r *sideResult) float64 { return r.reconciles }},
		{show: func(r *sideResult) string { return byLabel(r.causes) }},
		{show: func(r *sideResult) string { return fmt.Sprintf("%d", r.requests) }, value: func(r *sideResult) float64 { return float64(r.requests) }},
		{show: func(r *sideResult) string { return fmt.Sprintf("%.0f", sum(r.api)) }, value: func(r *sideResult) float64 { return sum(r.api) }},
		{show: func(r *sideResult) string { return byLabel(r.api) }},
		{show: func(r *sideResult) string { return byLabel(r.served) }},
		{show: func(r *sideResult) string { return fmt.Sprintf("%d / %d", len(r.ready), r.n) }},
		{show: func(r *sideResult) string { return readyTimes(r.ready) }, value: at(1)},
	}
	names := []string{"idle RSS", "peak RSS in the window", "settled RSS (end of the window)", "CPU-s, first create to end of the window",
		"controller-runtime reconciles in the window", "of which, by cause (rustfs_managed_reconciles_total, rustfs_deferred_reconciles_total)", "RustFS requests in the window",
		"API server requests in the window (rest_client_requests_total)", "of which, by method", "the API server's view, the benchmark's own requests included (apiserver_request_total)", "Buckets Ready in the window",
		"Ready first / median / last (s after the first create)"}
	for i := range rows {
		rows[i].name = names[i]
	}
	return rows
}

// readyTimes returns "first / median / last" in seconds.
func readyTimes(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	return fmt.Sprintf("%.1f / %.1f / %.1f", quantile(ds, 0).Seconds(), quantile(ds, 0.5).Seconds(), quantile(ds, 1).Seconds())
}

// quantile returns the q-quantile (0 first, 1 last) of the sorted ds, by
// the nearest rank; zero for none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	i := int(q*float64(len(ds)-1) + 0.5)
	return ds[i]
}

// ratio returns value(a)/value(b) with two decimals, or "" when the row
// has no ratio or b is zero.
func ratio(value func(*sideResult) float64, a, b *sideResult) string {
	if value == nil || value(b) == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f×", value(a)/value(b))
}

// byLabel renders counts by label, or says the provider does not report
// them.
func byLabel(m map[string]float64) string {
	if len(m) == 0 {
		return "not reported"
	}
	return joinSorted(m, "%s %.0f")
}
