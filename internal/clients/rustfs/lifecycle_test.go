package rustfs

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// normaliseLifecycle makes a configuration comparable across the wire:
// rules sorted by ID and dates re-rendered as RFC 3339 UTC.
func normaliseLifecycle(l *Lifecycle) *Lifecycle {
	out := &Lifecycle{Rules: append([]LifecycleRule(nil), l.Rules...)}
	for i := range out.Rules {
		r := &out.Rules[i]
		if r.Expiration != nil {
			x := *r.Expiration
			x.Date = normaliseDate(x.Date)
			r.Expiration = &x
		}
		ts := append([]Transition(nil), r.Transitions...)
		for j := range ts {
			ts[j].Date = normaliseDate(ts[j].Date)
		}
		r.Transitions = ts
	}
	sort.Slice(out.Rules, func(i, j int) bool { return out.Rules[i].ID < out.Rules[j].ID })
	return out
}

func normaliseDate(s string) string {
	if t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s)); err == nil {
		return t.UTC().Format(time.RFC3339)
	}
	return s
}

// fullLifecycle uses every element, two transitions in one rule and Days 0.
func fullLifecycle() *Lifecycle {
	return &Lifecycle{Rules: []LifecycleRule{
		{ID: "to-tiers", Status: "Enabled", Filter: &LifecycleFilter{Prefix: ptr("logs/")},
			Transitions: []Transition{{Days: ptr(int32(0)), StorageClass: "WARM"}, {Days: ptr(int32(30)), StorageClass: "COLD"}},
			NoncurrentVersionTransitions: []NoncurrentVersionTransition{
				{NoncurrentDays: ptr(int32(0)), NewerNoncurrentVersions: ptr(int32(2)), StorageClass: "COLD"}},
			NoncurrentVersionExpiration:    &NoncurrentVersionExpiration{NoncurrentDays: ptr(int32(90)), NewerNoncurrentVersions: ptr(int32(1))},
			AbortIncompleteMultipartUpload: &AbortIncompleteMultipartUpload{DaysAfterInitiation: ptr(int32(7))},
			Expiration:                     &Expiration{Days: ptr(int32(365)), ExpiredObjectAllVersions: ptr(true)}},
		{ID: "dated", Status: "Disabled", Filter: &LifecycleFilter{And: &LifecycleAnd{Prefix: ptr("a/"),
			Tags: []Tag{{Key: "k", Value: "v"}, {Key: "k2", Value: "v2"}}, ObjectSizeGreaterThan: ptr(int64(1024)),
			ObjectSizeLessThan: ptr(int64(1 << 30))}},
			Transitions: []Transition{{Date: "2030-01-01T00:00:00Z", StorageClass: "COLD"}}},
		{ID: "markers", Status: "Enabled", Filter: &LifecycleFilter{ObjectSizeGreaterThan: ptr(int64(0))},
			DelMarkerExpiration: &DelMarkerExpiration{Days: ptr(int32(3))}},
		{ID: "legacy", Status: "Enabled", Prefix: ptr("old/"),
			Expiration: &Expiration{ExpiredObjectDeleteMarker: ptr(true)}},
	}}
}

func TestLifecycleRoundTrip(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p := newPair(t, mode)
			p.local.CreateBucket("data", false)
			for _, n := range []string{"WARM", "COLD"} {
				p.local.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: n, Endpoint: p.remote.TierURL(), Bucket: remoteBucket})
			}
			want := fullLifecycle()
			if err := p.client.PutLifecycle(ctx, "data", want); err != nil {
				t.Fatalf("PutLifecycle: %v", err)
			}
			got, err := p.client.GetLifecycle(ctx, "data")
			if err != nil {
				t.Fatalf("GetLifecycle: %v", err)
			}
			if diff := cmp.Diff(normaliseLifecycle(want), normaliseLifecycle(got)); diff != "" {
				t.Errorf("GetLifecycle: -want +got:\n%s", diff)
			}
			if err := p.client.DeleteLifecycle(ctx, "data"); err != nil {
				t.Fatalf("DeleteLifecycle: %v", err)
			}
			if _, err := p.client.GetLifecycle(ctx, "data"); !IsNoSuchLifecycle(err) {
				t.Errorf("GetLifecycle after delete: want NoSuchLifecycle, got %v", err)
			}
			if err := p.client.DeleteLifecycle(ctx, "data"); err != nil {
				t.Errorf("DeleteLifecycle is idempotent: %v", err)
			}
		})
	}
}

func TestLifecycleServerAssignsIDs(t *testing.T) {
	ctx := context.Background()
	p := newPair(t, rustfstest.ModeGA)
	p.local.CreateBucket("data", false)
	l := &Lifecycle{Rules: []LifecycleRule{{Status: "Enabled", Expiration: &Expiration{Days: ptr(int32(1))}}}}
	if err := p.client.PutLifecycle(ctx, "data", l); err != nil {
		t.Fatalf("PutLifecycle: %v", err)
	}
	got, err := p.client.GetLifecycle(ctx, "data")
	if err != nil || len(got.Rules) != 1 || got.Rules[0].ID != "rule-0" {
		t.Errorf("GetLifecycle: want rule-0, got %+v, %v", got, err)
	}
}

func TestLifecycleDroppedFields(t *testing.T) {
	ctx := context.Background()
	p := newPair(t, rustfstest.ModeGA, rustfstest.WithDroppedLifecycleFields("DelMarkerExpiration", "NewerNoncurrentVersions"))
	p.local.CreateBucket("data", false)
	l := &Lifecycle{Rules: []LifecycleRule{{ID: "r", Status: "Enabled",
		DelMarkerExpiration:         &DelMarkerExpiration{Days: ptr(int32(2))},
		NoncurrentVersionExpiration: &NoncurrentVersionExpiration{NoncurrentDays: ptr(int32(5)), NewerNoncurrentVersions: ptr(int32(1))}}}}
	if err := p.client.PutLifecycle(ctx, "data", l); err != nil {
		t.Fatalf("PutLifecycle: %v", err)
	}
	got, err := p.client.GetLifecycle(ctx, "data")
	if err != nil {
		t.Fatalf("GetLifecycle: %v", err)
	}
	want := &Lifecycle{Rules: []LifecycleRule{{ID: "r", Status: "Enabled",
		NoncurrentVersionExpiration: &NoncurrentVersionExpiration{NoncurrentDays: ptr(int32(5))}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dropped fields: -want +got:\n%s", diff)
	}
}
