package main

import (
	"fmt"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// verifies and tierStats count a window's tier verifies and tier-stats
// requests.
func verifies(counts map[string]int) int  { return counts[rustfstest.RouteVerifyTier] }
func tierStats(counts map[string]int) int { return counts[rustfstest.RouteTierStats] }

// verifyBound is the most tier verifies the verify interval allows in the
// steady-state window: each Tier verifies at most once per interval, so at
// most ⌊window / interval⌋ + 1 times (none when verifies are disabled).
func (r *result) verifyBound() int {
	if r.verify <= 0 {
		return 0
	}
	return r.n * (int(r.window/r.verify) + 1)
}

// statsBound is the most tier-stats requests the refresh allows: one per
// endpoint per poll interval, plus one for where the window starts in the
// refresh cycle.
func (r *result) statsBound() int { return endpoints * (r.intervals + 1) }

// healthProblems returns the smoke test's failures of the verify and stats
// bounds (counts, never times).
func (r *result) healthProblems() []string {
	var p []string
	if n := verifies(r.steady); n > r.verifyBound() {
		p = append(p, fmt.Sprintf("%s: %d tier verifies in %s, want at most %d (%d Tiers x (window / %s + 1))",
			r.mode, n, r.window, r.verifyBound(), r.n, r.verify))
	}
	if n := tierStats(r.steady); n > r.statsBound() {
		p = append(p, fmt.Sprintf("%s: %d tier stats in %d poll intervals, want at most %d (%d endpoint x (%d intervals + 1))",
			r.mode, n, r.intervals, r.statsBound(), endpoints, r.intervals))
	}
	return p
}
