package rustfs

import (
	"context"
	"testing"
)

func TestBucketRoundTrip(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := newPair(t, mode).client
			if ok, err := c.BucketExists(ctx, "data"); err != nil || ok {
				t.Fatalf("BucketExists before create: %t, %v", ok, err)
			}
			if err := c.CreateBucket(ctx, "data", CreateBucketOptions{Region: "eu-west-1"}); err != nil {
				t.Fatalf("CreateBucket: %v", err)
			}
			if err := c.CreateBucket(ctx, "data", CreateBucketOptions{}); err != nil {
				t.Errorf("CreateBucket again (owner) should succeed: %v", err)
			}
			if err := c.CreateBucket(ctx, "locked", CreateBucketOptions{ObjectLock: true}); err != nil {
				t.Fatalf("CreateBucket(locked): %v", err)
			}
			if ok, err := c.BucketExists(ctx, "data"); err != nil || !ok {
				t.Errorf("BucketExists after create: %t, %v", ok, err)
			}
			if loc, err := c.GetBucketLocation(ctx, "data"); err != nil || loc != "us-east-1" {
				t.Errorf("GetBucketLocation: %q, %v (RustFS reports its server region)", loc, err)
			}
			for bucket, want := range map[string]bool{"data": false, "locked": true} {
				if got, err := c.GetObjectLockEnabled(ctx, bucket); err != nil || got != want {
					t.Errorf("GetObjectLockEnabled(%s): %t, %v; want %t", bucket, got, err, want)
				}
			}
			testVersioning(ctx, t, c)
		})
	}
}

func testVersioning(ctx context.Context, t *testing.T, c *Client) {
	t.Helper()
	if s, err := c.GetVersioning(ctx, "data"); err != nil || s != VersioningUnset {
		t.Errorf("GetVersioning(new): %q, %v", s, err)
	}
	for _, want := range []VersioningStatus{VersioningEnabled, VersioningSuspended} {
		if err := c.SetVersioning(ctx, "data", want); err != nil {
			t.Fatalf("SetVersioning(%s): %v", want, err)
		}
		if got, err := c.GetVersioning(ctx, "data"); err != nil || got != want {
			t.Errorf("GetVersioning: %q, %v; want %q", got, err, want)
		}
	}
	if s, err := c.GetVersioning(ctx, "locked"); err != nil || s != VersioningEnabled {
		t.Errorf("GetVersioning(locked): %q, %v; object lock implies Enabled", s, err)
	}
	if err := c.SetVersioning(ctx, "locked", VersioningSuspended); err == nil {
		t.Error("SetVersioning(locked, Suspended): want InvalidBucketState")
	}
	if err := c.SetVersioning(ctx, "data", VersioningUnset); err == nil {
		t.Error("SetVersioning(\"\"): want a local error")
	}
}
