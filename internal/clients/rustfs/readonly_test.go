package rustfs

import (
	"context"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// A read-only client refuses every write before sending it, so RustFS
// sees no request, and still sends reads.
func TestReadOnlyClient(t *testing.T) {
	p := newPair(t, rustfstest.ModeRC)
	p.local.CreateBucket("seen", false)
	ro, err := New(Config{Endpoint: p.local.URL(), AccessKey: rustfstest.DefaultAccessKey,
		SecretKey: rustfstest.DefaultSecretKey, Timeout: 5 * time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cases := map[string]struct {
		call  func() error
		route string
		write bool
	}{
		"CreateBucket":    {func() error { return ro.CreateBucket(ctx, "fresh", CreateBucketOptions{}) }, rustfstest.RouteCreateBucket, true},
		"SetVersioning":   {func() error { return ro.SetVersioning(ctx, "seen", VersioningEnabled) }, rustfstest.RoutePutVersioning, true},
		"PutLifecycle":    {func() error { return ro.PutLifecycle(ctx, "seen", &Lifecycle{}) }, rustfstest.RoutePutLifecycle, true},
		"DeleteLifecycle": {func() error { return ro.DeleteLifecycle(ctx, "seen") }, rustfstest.RouteDeleteLifecycle, true},
		"AddTier":         {func() error { return ro.AddTier(ctx, p.tier("WARM"), false) }, rustfstest.RouteAddTier, true},
		"VerifyTier":      {func() error { return ro.VerifyTier(ctx, "WARM") }, rustfstest.RouteVerifyTier, true},
		"BucketExists":    {func() error { _, err := ro.BucketExists(ctx, "seen"); return err }, rustfstest.RouteHeadBucket, false},
		"ListTiers":       {func() error { _, err := ro.ListTiers(ctx); return err }, rustfstest.RouteListTiers, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := p.local.Count(tc.route)
			err := tc.call()
			sent := p.local.Count(tc.route) - before
			if tc.write {
				if !IsReadOnly(err) || sent != 0 {
					t.Errorf("write: want refused with no request, got error %v and %d requests", err, sent)
				}
				return
			}
			if err != nil || sent != 1 {
				t.Errorf("read: want one request and no error, got error %v and %d requests", err, sent)
			}
		})
	}
}

// Every write operation is refused, every read is not.
func TestIsWrite(t *testing.T) {
	reads := map[string]bool{OpListTiers: true, OpTierStats: true, OpServerInfo: true, OpHeadBucket: true, OpBucketLocation: true,
		OpObjectLock: true, OpGetVersioning: true, OpGetLifecycle: true, OpUserInfo: true, OpCannedPolicyInfo: true,
		OpServiceAccountInfo: true, OpListVersions: true, OpGetQuota: true}
	for _, op := range Operations() {
		if got, want := IsWrite(op), !reads[op]; got != want {
			t.Errorf("IsWrite(%q): want %t, got %t", op, want, got)
		}
	}
}
