package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

func TestByKind(t *testing.T) {
	cases := map[string]struct {
		reason string
		routes map[string]int
		want   map[string]int
	}{
		"Empty": {reason: "No request is no kind.", routes: map[string]int{}, want: map[string]int{}},
		"TierCallsApart": {
			reason: "Each tier admin call is its own kind: lists, adds and edits are what the shared list and the probes cost.",
			routes: map[string]int{rustfstest.RouteListTiers: 3, rustfstest.RouteAddTier: 2, rustfstest.RouteEditTier: 1, rustfstest.RouteTierStats: 4},
			want:   map[string]int{"tier.list": 3, "tier.add": 2, "tier.edit": 1, "tier.stats": 4},
		},
		"BucketReadsTogether": {
			reason: "A Bucket observe's four reads and its create are one kind.",
			routes: map[string]int{rustfstest.RouteHeadBucket: 5, rustfstest.RouteBucketLocation: 4, rustfstest.RouteObjectLock: 4,
				rustfstest.RouteGetVersioning: 4, rustfstest.RouteCreateBucket: 1},
			want: map[string]int{"bucket": 18},
		},
		"IAMAndServiceAccounts": {
			reason: "User, policy and service-account calls are one IAM kind.",
			routes: map[string]int{rustfstest.RouteAddUser: 1, rustfstest.RouteSetUserPolicy: 2, rustfstest.RouteAddServiceAccount: 3},
			want:   map[string]int{"iam": 6},
		},
		"OthersByGroup": {
			reason: "Lifecycle, object and S3 calls are grouped by their route's group; zero counts are left out.",
			routes: map[string]int{rustfstest.RouteGetLifecycle: 7, rustfstest.RoutePutLifecycle: 1, rustfstest.RoutePutObject: 2,
				rustfstest.RouteGetObject: 2, rustfstest.RouteListBuckets: 0},
			want: map[string]int{"lifecycle": 8, "object": 4},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, byKind(tc.routes)); diff != "" {
				t.Errorf("%s\nbyKind: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestRequestCountString(t *testing.T) {
	cases := map[string]struct {
		reason string
		count  requestCount
		want   string
	}{
		"RatePerSecond": {
			reason: "The rate is every request over the counted window, the kinds sorted.",
			count: requestCount{routes: map[string]int{rustfstest.RouteHeadBucket: 300, rustfstest.RouteCreateBucket: 100,
				rustfstest.RouteGetLifecycle: 100}, writes: 100, window: 10 * time.Second},
			want: "500 requests, 50.0 per second: bucket=400, lifecycle=100; 100 writes",
		},
		"Nothing": {
			reason: "No request reads none, at no rate.",
			count:  requestCount{routes: map[string]int{}, window: time.Second},
			want:   "0 requests, 0.0 per second: none; 0 writes",
		},
		"NoWindow": {
			reason: "A window of zero gives no rate rather than dividing by zero.",
			count:  requestCount{routes: map[string]int{rustfstest.RouteListTiers: 1}},
			want:   "1 requests, 0.0 per second: tier.list=1; 0 writes",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.count.String()); diff != "" {
				t.Errorf("%s\nString: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
