package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

func withHealth(verify time.Duration, verifies, stats int) resultModifier {
	return func(r *result) {
		r.verify = verify
		r.steady[rustfstest.RouteVerifyTier] = verifies
		r.steady[rustfstest.RouteTierStats] = stats
	}
}

// TestHealthProblems: the smoke test holds verifies to once per Tier per
// verify interval and tier stats to one per endpoint per poll interval.
func TestHealthProblems(t *testing.T) {
	cases := map[string]struct {
		reason string
		result *result
		want   []string
	}{
		"WithinBounds": {reason: "One verify per Tier in a window shorter than the interval, one stats per interval.",
			result: fixture(withHealth(10*time.Minute, 20, 3))},
		"StatsAlignment": {reason: "The window may start just before a refresh: one stats more is allowed.",
			result: fixture(withHealth(10*time.Minute, 0, 4))},
		"VerifyPerPoll": {reason: "Verifying every Tier at every poll breaks the bound.",
			result: fixture(withHealth(10*time.Minute, 60, 3)), want: []string{"shared: 60 tier verifies"}},
		"StatsPerTier": {reason: "A stats request per Tier breaks the bound.",
			result: fixture(withHealth(10*time.Minute, 0, 60)), want: []string{"shared: 60 tier stats"}},
		"VerifyDisabled": {reason: "With verifies disabled any verify is a failure.",
			result: fixture(withHealth(0, 1, 3)), want: []string{"shared: 1 tier verifies"}},
		"ShortInterval": {reason: "A 10 s interval in a 30 s window allows four verifies per Tier.",
			result: fixture(withHealth(10*time.Second, 80, 3))},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, p := range tc.result.problems() {
				got = append(got, p[:strings.Index(p, " in")])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nproblems: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
