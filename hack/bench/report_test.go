package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

type resultModifier func(*result)

func withSteady(lists, writes int) resultModifier {
	return func(r *result) {
		r.steady = map[string]int{rustfstest.RouteListTiers: lists, rustfstest.RouteGetLifecycle: r.n * r.intervals}
		r.steadyWrites = writes
	}
}

func withMode(m string) resultModifier { return func(r *result) { r.mode = m } }

func fixture(m ...resultModifier) *result {
	r := &result{mode: "shared", n: 20, poll: 10 * time.Second, rate: 20, intervals: 3, toReady: 9 * time.Second, window: 30 * time.Second,
		managed:       map[string]float64{v1alpha1.TierKind: 40, v1alpha1.BucketKind: 40, v1alpha1.BucketLifecycleKind: 60},
		statusUpdates: map[string]float64{v1alpha1.TierKind: 41, v1alpha1.BucketKind: 40, v1alpha1.BucketLifecycleKind: 20}}
	withSteady(3, 0)(r)
	for _, f := range m {
		f(r)
	}
	return r
}

func TestProblems(t *testing.T) {
	cases := map[string]struct {
		reason string
		result *result
		want   []string
	}{
		"WithinBounds":    {reason: "One list per poll interval and no write is a pass.", result: fixture()},
		"TooManyLists":    {reason: "A fourth list in three intervals breaks the 1.1 bound.", result: fixture(withSteady(4, 0)), want: []string{"shared: 4 tier lists"}},
		"NaiveListsMany":  {reason: "The naive mode is not held to the tier list bound.", result: fixture(withMode("naive"), withSteady(60, 0))},
		"SteadyWrites":    {reason: "Any steady-state write fails, in either mode.", result: fixture(withMode("naive"), withSteady(60, 1)), want: []string{"naive: 1 RustFS writes"}},
		"BothProblems":    {reason: "Every broken bound is reported.", result: fixture(withSteady(9, 2)), want: []string{"shared: 2 RustFS writes", "shared: 9 tier lists"}},
		"ExactlyTheFloor": {reason: "Three lists in three intervals is the floor.", result: fixture(withSteady(3, 0))},
		"StatusUpdates": {reason: "A status update in steady state beyond the tier verifies and stats fails: a poll that changes nothing writes nothing.",
			result: fixture(func(r *result) {
				r.steady[rustfstest.RouteTierStats] = 1
				r.steadyStatuses = map[string]float64{v1alpha1.TierKind: 1, v1alpha1.BucketKind: 1}
			}), want: []string{"shared: 2 status updates"}},
		"TierResults": {reason: "A Tier may record each verify's and stats' result.",
			result: fixture(func(r *result) {
				r.verify, r.steady[rustfstest.RouteVerifyTier], r.steady[rustfstest.RouteTierStats] = time.Minute, 1, 1
				r.steadyStatuses = map[string]float64{v1alpha1.TierKind: 2}
			})},
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

func TestFloor(t *testing.T) {
	measured, ideal := fixture().floor()
	if measured != 7*time.Second || ideal != 6*time.Second {
		t.Errorf("floor of 140 reconciles and of 2 x 60 resources at 20/s: got %s and %s; want 7s and 6s", measured, ideal)
	}
}

func TestReportPrintsBothModesAndTheRatio(t *testing.T) {
	var b bytes.Buffer
	printReport(&b, []*result{fixture(), fixture(withMode("naive"), withSteady(60, 0))})
	for _, want := range []string{"mode shared", "mode naive", "tier lists in the window (bound)", "3 (3.3)", "naive/shared tier lists: steady state 60/3 = 20"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestReportPrintsRequestsByKindAndRate(t *testing.T) {
	r := fixture(func(r *result) {
		r.convergence = map[string]int{rustfstest.RouteAddTier: 20, rustfstest.RouteListTiers: 10, rustfstest.RouteHeadBucket: 40}
		r.convergenceWrites, r.convergenceCounted = 20, 10*time.Second
		r.kindsReady = map[string]time.Duration{v1alpha1.TierKind: 9 * time.Second, v1alpha1.BucketKind: 4 * time.Second}
		r.errs = map[string]float64{v1alpha1.TierKind: 2}
		r.burst = &burstResult{n: 20, polling: 60, local: requestCount{routes: map[string]int{rustfstest.RouteCreateBucket: 20,
			rustfstest.RouteGetLifecycle: 5}, writes: 20, window: 5 * time.Second}, remote: requestCount{routes: map[string]int{}, window: 5 * time.Second}}
	})
	var b bytes.Buffer
	printReport(&b, []*result{r})
	for _, want := range []string{
		"70 requests, 7.0 per second: bucket=40, tier.add=20, tier.list=10; 20 writes",
		"Tier 9.0 s, Bucket 4.0 s, BucketLifecycle 0.0 s",
		"Tier 2, Bucket 0, BucketLifecycle 0, all 2",
		"25 requests, 5.0 per second: bucket=20, lifecycle=5; 20 writes",
		"0 requests, 0.0 per second: none; 0 writes",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}
