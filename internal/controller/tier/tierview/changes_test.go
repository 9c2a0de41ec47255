package tierview

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

func TestDiff(t *testing.T) {
	cold, warm := tierNamed("COLD"), tierNamed("WARM")
	cases := map[string]struct {
		reason string
		before []rustfs.Tier
		after  []rustfs.Tier
		want   []Change
	}{
		"Unchanged":      {reason: "The same tiers, in another order, are no change.", before: []rustfs.Tier{cold, warm}, after: []rustfs.Tier{warm, cold}},
		"Added":          {reason: "A tier only the new list shows is no change: the provider's own adds make them.", before: []rustfs.Tier{cold}, after: []rustfs.Tier{cold, warm}},
		"Removed":        {reason: "A tier removed out of band is a change.", before: []rustfs.Tier{cold, warm}, after: []rustfs.Tier{cold}, want: []Change{{endpointA, "WARM"}}},
		"AccessKey":      {reason: "Another access key is a change.", before: []rustfs.Tier{cold}, after: []rustfs.Tier{tierNamed("COLD", func(t *rustfs.Tier) { t.AccessKey = "AKROGUE" })}, want: []Change{{endpointA, "COLD"}}},
		"Prefix":         {reason: "Other settings are a change.", before: []rustfs.Tier{cold}, after: []rustfs.Tier{tierNamed("COLD", func(t *rustfs.Tier) { t.Prefix = "elsewhere/" })}, want: []Change{{endpointA, "COLD"}}},
		"StorageClass":   {reason: "Every listed setting counts.", before: []rustfs.Tier{cold}, after: []rustfs.Tier{tierNamed("COLD", func(t *rustfs.Tier) { t.StorageClass = "GLACIER" })}, want: []Change{{endpointA, "COLD"}}},
		"SecretKeyShown": {reason: "The secret key is not compared: RustFS lists it redacted.", before: []rustfs.Tier{cold}, after: []rustfs.Tier{tierNamed("COLD", func(t *rustfs.Tier) { t.SecretKey = "" })}},
		"AllRemoved":     {reason: "An empty list removes every tier.", before: []rustfs.Tier{cold, warm}, want: []Change{{endpointA, "COLD"}, {endpointA, "WARM"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Diff(endpointA, tc.before, tc.after)); diff != "" {
				t.Errorf("%s\nDiff: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// A recorder collects what a View notifies.
type recorder struct {
	mu      sync.Mutex
	batches [][]Change
}

func (r *recorder) notify(c []Change) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches = append(r.batches, c)
}

func TestRefreshedListNotifiesChanges(t *testing.T) {
	cold, warm := tierNamed("COLD"), tierNamed("WARM")
	rogue := tierNamed("COLD", func(t *rustfs.Tier) { t.AccessKey = "AKROGUE" })
	cases := map[string]struct {
		reason string
		lists  [][]rustfs.Tier
		want   [][]Change
	}{
		"FirstListIsNoChange": {reason: "Nothing is compared with the first list.", lists: [][]rustfs.Tier{{cold}}},
		"Unchanged":           {reason: "Refreshes that list the same tiers notify nothing.", lists: [][]rustfs.Tier{{cold}, {cold}, {cold}}},
		"EditThenRemoval": {
			reason: "Each refresh that shows a change notifies it once.",
			lists:  [][]rustfs.Tier{{cold, warm}, {rogue, warm}, {rogue, warm}, {rogue}},
			want:   [][]Change{{{endpointA, "COLD"}}, {{endpointA, "WARM"}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, clk, rec := &lister{lists: tc.lists}, &clock{now: t0}, &recorder{}
			v := New(l.list, time.Minute, WithClock(clk.Now), WithNotify(rec.notify))
			for range tc.lists {
				if _, err := v.List(context.Background(), conn(endpointA, "AKADMIN")); err != nil {
					t.Fatal(err)
				}
				clk.advance(time.Minute)
			}
			if diff := cmp.Diff(tc.want, rec.batches); diff != "" {
				t.Errorf("%s\nnotified: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestSweepForgetsIdleEntries(t *testing.T) {
	const refresh = time.Minute
	cases := map[string]struct {
		reason string
		idle   time.Duration
		want   int
	}{
		"Used":     {reason: "An entry asked for within the idle period is kept.", idle: 3*refresh - time.Second, want: 1},
		"Idle":     {reason: "An entry nobody asked for during the idle period is forgotten.", idle: 3 * refresh, want: 0},
		"LongIdle": {reason: "However long the View runs, forgotten entries do not come back.", idle: 24 * time.Hour, want: 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, clk := &lister{}, &clock{now: t0}
			v := New(l.list, refresh, WithClock(clk.Now))
			if _, err := v.List(context.Background(), conn(endpointA, "AKADMIN")); err != nil {
				t.Fatal(err)
			}
			clk.advance(tc.idle)
			v.Sweep()
			if got := v.Len(); got != tc.want {
				t.Errorf("%s\nentries after %s: got %d, want %d", tc.reason, tc.idle, got, tc.want)
			}
		})
	}
}

func TestManyEndpointsDoNotGrowTheView(t *testing.T) {
	l, clk := &lister{}, &clock{now: t0}
	v := New(l.list, time.Minute, WithClock(clk.Now), WithIdle(time.Minute))
	for i := range 1000 {
		if _, err := v.List(context.Background(), conn(fmt.Sprintf("http://rustfs-%d:9000", i), "AKADMIN")); err != nil {
			t.Fatal(err)
		}
		clk.advance(time.Second)
		if i%60 == 0 {
			v.Sweep()
		}
	}
	if n := v.Len(); n > 120 {
		t.Errorf("entries after 1000 endpoints used once each, one a second, idle 1m: got %d, want at most 120", n)
	}
}

func TestSweepKeepsEntriesInFlight(t *testing.T) {
	l := &lister{gate: make(chan struct{})}
	clk := &clock{now: t0}
	v := New(l.list, time.Minute, WithClock(clk.Now))
	done := listAsync(t, context.Background(), v, "AKADMIN", l.arrivedN(1))
	clk.advance(time.Hour)
	v.Sweep()
	if v.Len() != 1 {
		t.Error("Sweep forgot an entry whose request is in flight")
	}
	close(l.gate)
	receive(t, "the List in flight", done)
}

func TestStartSweepsUntilCancelled(t *testing.T) {
	l, clk := &lister{}, &clock{now: t0}
	v := New(l.list, time.Millisecond, WithClock(clk.Now))
	if _, err := v.List(context.Background(), conn(endpointA, "AKADMIN")); err != nil {
		t.Fatal(err)
	}
	clk.advance(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan error)
	go func() { stopped <- v.Start(ctx) }()
	waitFor(t, "Start sweeps the expired entry", func() bool { return v.Len() == 0 })
	cancel()
	if err := receive(t, "Start returns once cancelled", stopped); err != nil {
		t.Errorf("Start: %v", err)
	}
}
