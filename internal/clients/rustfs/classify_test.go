package rustfs

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// A classCase provokes one error class against a real emulator pair.
type classCase struct {
	reason    string
	provoke   func(t *testing.T, p pair) error
	is        func(error) bool
	transient bool
}

func addTwice(t *testing.T, p pair) error {
	t.Helper()
	if err := p.client.AddTier(context.Background(), p.tier("COLD"), false); err != nil {
		t.Fatalf("first AddTier: %v", err)
	}
	return p.client.AddTier(context.Background(), p.tier("COLD"), false)
}

func addNamed(name string) func(*testing.T, pair) error {
	return func(_ *testing.T, p pair) error { return p.client.AddTier(context.Background(), p.tier(name), false) }
}

func addModified(mod func(*Tier)) func(*testing.T, pair) error {
	return func(_ *testing.T, p pair) error {
		tier := p.tier("COLD")
		mod(&tier)
		return p.client.AddTier(context.Background(), tier, false)
	}
}

func addToNonEmptyPrefix(_ *testing.T, p pair) error {
	p.remote.PutObject(remoteBucket, "tiered/existing", []byte("x"))
	return p.client.AddTier(context.Background(), p.tier("COLD"), false)
}

func removeNonEmpty(t *testing.T, p pair) error {
	t.Helper()
	if err := p.client.AddTier(context.Background(), p.tier("COLD"), false); err != nil {
		t.Fatalf("AddTier: %v", err)
	}
	p.remote.PutObject(remoteBucket, "tiered/obj", []byte("x"))
	return p.client.RemoveTier(context.Background(), "COLD", false)
}

func removeReferenced(_ *testing.T, p pair) error {
	p.local.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD", Endpoint: p.remote.TierURL(), Bucket: remoteBucket})
	p.local.MarkTransitioned("data", "obj", "COLD")
	return p.client.RemoveTier(context.Background(), "COLD", true)
}

func withFault(route string, f rustfstest.Fault, call func(*Client) error) func(*testing.T, pair) error {
	return func(_ *testing.T, p pair) error {
		p.local.InjectFault(route, f)
		return call(p.client)
	}
}

func listTiers(c *Client) error { _, err := c.ListTiers(context.Background()); return err }

func classCases() map[string]classCase {
	cases := tierClassCases()
	for _, more := range []map[string]classCase{requestClassCases(), transientClassCases()} {
		for k, v := range more {
			cases[k] = v
		}
	}
	return cases
}

// tierClassCases are the tier admin error classes.
func tierClassCases() map[string]classCase {
	return map[string]classCase{
		"TierExists":        {reason: "a second add of the same name", provoke: addTwice, is: IsTierExists},
		"InvalidTierName":   {reason: "lowercase names are refused", provoke: addNamed("cold"), is: IsInvalidTierName},
		"ReservedTierName":  {reason: "STANDARD is reserved", provoke: addNamed("STANDARD"), is: IsReservedTierName},
		"BackendInUseOnAdd": {reason: "the remote prefix has objects", provoke: addToNonEmptyPrefix, is: IsBackendInUse},
		"BackendNotEmpty":   {reason: "remove without force of a non-empty prefix", provoke: removeNonEmpty, is: IsBackendInUse},
		"Referenced":        {reason: "force cannot remove a referenced tier", provoke: removeReferenced, is: IsBackendInUse},
		"WrongRemoteKeys": {reason: "the remote refuses the keys (rc: the in-use listing, GA: the probe object)",
			provoke: addModified(func(t *Tier) { t.SecretKey = "wrong" }), is: IsInvalidConfig},
		"MissingRemoteBucket": {reason: "the remote bucket does not exist",
			provoke: addModified(func(t *Tier) { t.Bucket = "missing" }), is: IsInvalidConfig},
		"S3Loopback": {reason: "s3 tiers refuse loopback endpoints",
			provoke: addModified(func(t *Tier) { t.Type, t.Endpoint = TierS3, "http://127.0.0.1:9000" }), is: IsInvalidConfig},
		"EditUnknown": {reason: "edit of an unknown tier",
			provoke: func(_ *testing.T, p pair) error {
				return p.client.EditTierCredentials(context.Background(), "NOPE", "a", "b")
			}, is: IsTierNotFound},
		"VerifyUnknown": {reason: "verify of an unknown tier",
			provoke: func(_ *testing.T, p pair) error { return p.client.VerifyTier(context.Background(), "NOPE") },
			is:      IsTierNotFound},
	}
}

// requestClassCases are the authentication and S3 error classes.
func requestClassCases() map[string]classCase {
	return map[string]classCase{
		"BadSecret": {reason: "wrong secret key",
			provoke: func(t *testing.T, p pair) error { return listTiers(p.clientAs(t, rustfstest.DefaultAccessKey, "bad")) },
			is:      IsAccessDenied},
		"UnknownKey": {reason: "unknown access key",
			provoke: func(t *testing.T, p pair) error { return listTiers(p.clientAs(t, "nobody", "x")) },
			is:      IsAccessDenied},
		"NotAllowed": {reason: "a user with only admin:ListTier cannot add",
			provoke: func(t *testing.T, p pair) error {
				return p.clientAs(t, "viewer", "viewer-secret").AddTier(context.Background(), p.tier("COLD"), false)
			}, is: IsAccessDenied},
		"ClockSkew": {reason: "the server clock is 20 minutes ahead",
			provoke: func(t *testing.T, p pair) error {
				c := p.clientAs(t, rustfstest.DefaultAccessKey, rustfstest.DefaultSecretKey)
				c.now = func() time.Time { return time.Now().Add(-20 * time.Minute) }
				return listTiers(c)
			}, is: IsAccessDenied},
		"NoSuchBucket": {reason: "versioning of a missing bucket",
			provoke: func(_ *testing.T, p pair) error {
				_, err := p.client.GetVersioning(context.Background(), "missing")
				return err
			}, is: IsNoSuchBucket},
		"BucketExists": {reason: "a non-root user creates a bucket someone else made",
			provoke: func(t *testing.T, p pair) error {
				p.local.CreateBucket("data", false)
				p.local.SetUser("maker", "maker-secret", "s3:CreateBucket")
				return p.clientAs(t, "maker", "maker-secret").CreateBucket(context.Background(), "data", CreateBucketOptions{})
			}, is: IsBucketExists},
		"NoSuchLifecycle": {reason: "a bucket without lifecycle",
			provoke: func(_ *testing.T, p pair) error {
				p.local.CreateBucket("data", false)
				_, err := p.client.GetLifecycle(context.Background(), "data")
				return err
			}, is: IsNoSuchLifecycle},
		"InvalidTier": {reason: "a transition to an unregistered tier",
			provoke: func(_ *testing.T, p pair) error {
				p.local.CreateBucket("data", false)
				return p.client.PutLifecycle(context.Background(), "data", &Lifecycle{Rules: []LifecycleRule{{
					ID: "r", Status: "Enabled", Transitions: []Transition{{Days: ptr(int32(1)), StorageClass: "NOPE"}}}}})
			}, is: IsInvalidTier},
	}
}

// transientClassCases are the answers worth retrying.
func transientClassCases() map[string]classCase {
	return map[string]classCase{
		"SlowDown503": {reason: "503 is transient", transient: true, is: IsTransient,
			provoke: withFault(rustfstest.RouteListTiers, rustfstest.Fault{Status: http.StatusServiceUnavailable, Code: "SlowDown"}, listTiers)},
		"TooMany429": {reason: "429 is transient", transient: true, is: IsTransient,
			provoke: withFault(rustfstest.RouteListTiers, rustfstest.Fault{Status: http.StatusTooManyRequests, Code: "TooManyRequests"}, listTiers)},
		"Reset": {reason: "a connection reset is transient", transient: true, is: IsTransient,
			provoke: withFault(rustfstest.RouteListTiers, rustfstest.Fault{Reset: true}, listTiers)},
		"Timeout": {reason: "a timeout is transient", transient: true, is: IsTransient,
			provoke: func(t *testing.T, p pair) error {
				p.local.InjectFault(rustfstest.RouteListTiers, rustfstest.Fault{Latency: 2 * time.Second})
				c := p.clientAs(t, rustfstest.DefaultAccessKey, rustfstest.DefaultSecretKey)
				c.http.Timeout = 100 * time.Millisecond
				return listTiers(c)
			}},
		"BeingReplaced": {reason: "a concurrent mutation is transient", transient: true, is: IsTransient,
			provoke: withFault(rustfstest.RouteAddTier, rustfstest.Fault{Status: 500, Code: "TierAddFailed",
				Message: "tier add failed. Remote tier configuration is already being replaced"},
				func(c *Client) error { return c.AddTier(context.Background(), Tier{Type: TierMinIO, Name: "X"}, false) })},
		"UnknownInternal": {reason: "an unknown 5xx code is transient", transient: true, is: IsTransient,
			provoke: withFault(rustfstest.RouteListTiers, rustfstest.Fault{Status: 500, Code: "InternalError"}, listTiers)},
	}
}

func TestErrorClasses(t *testing.T) {
	for mname, mode := range modes {
		for name, tc := range classCases() {
			t.Run(mname+"/"+name, func(t *testing.T) {
				p := newPair(t, mode, rustfstest.WithUser("viewer", "viewer-secret", "admin:ListTier"))
				err := tc.provoke(t, p)
				if err == nil {
					t.Fatalf("%s: want an error, got nil", tc.reason)
				}
				if !tc.is(err) {
					t.Errorf("%s: predicate false for %v", tc.reason, err)
				}
				if IsTransient(err) != tc.transient {
					t.Errorf("%s: IsTransient(%v) = %t, want %t", tc.reason, err, IsTransient(err), tc.transient)
				}
			})
		}
	}
}

// A GA RustFS probes the remote with the new keys of an edit; the refusal is
// 500 TierEditFailed "…probe outcome is uncertain…", an invalid
// configuration, not a transient failure (docs/rustfs-wire.md §13.2).
func TestRefusedGAEditIsInvalidConfig(t *testing.T) {
	p := newPair(t, rustfstest.ModeGA)
	if err := p.client.AddTier(context.Background(), p.tier("COLD"), false); err != nil {
		t.Fatalf("AddTier: %v", err)
	}
	err := p.client.EditTierCredentials(context.Background(), "COLD", "unknown", "wrong")
	if !IsInvalidConfig(err) || IsTransient(err) || IsTierNotFound(err) {
		t.Errorf("refused edit: IsInvalidConfig %t, IsTransient %t for %v", IsInvalidConfig(err), IsTransient(err), err)
	}
}
