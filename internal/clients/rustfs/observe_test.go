package rustfs

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// A call is one request reported to an observer.
type call struct{ op, code string }

// calls is a RequestObserver that remembers what it was told.
type calls struct {
	mu  sync.Mutex
	got []call
}

func (c *calls) ObserveRequest(op, code string, d time.Duration) {
	if d < 0 {
		op = "negative duration"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, call{op, code})
}

func (c *calls) list() []call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.got)
}

// observedPair is a pair whose client reports to the returned observer.
func observedPair(t *testing.T, mode rustfstest.Mode) (pair, *calls) {
	t.Helper()
	p := newPair(t, mode)
	obs := &calls{}
	c, err := New(Config{Endpoint: p.local.URL(), AccessKey: rustfstest.DefaultAccessKey,
		SecretKey: rustfstest.DefaultSecretKey, Timeout: 5 * time.Second}, WithRequestObserver(obs))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	p.client = c
	return p, obs
}

// everyCall makes each kind of request the client has once.
func everyCall(t *testing.T, p pair) {
	t.Helper()
	ctx := context.Background()
	cl := p.client
	_ = cl.CreateBucket(ctx, "data", CreateBucketOptions{})
	_, _ = cl.BucketExists(ctx, "data")
	_, _ = cl.GetBucketLocation(ctx, "data")
	_, _ = cl.GetObjectLockEnabled(ctx, "data")
	_ = cl.SetVersioning(ctx, "data", VersioningEnabled)
	_, _ = cl.GetVersioning(ctx, "data")
	_ = cl.PutLifecycle(ctx, "data", &Lifecycle{Rules: []LifecycleRule{{ID: "r", Status: "Enabled", Expiration: &Expiration{Days: ptr(int32(1))}}}})
	_, _ = cl.GetLifecycle(ctx, "data")
	_ = cl.DeleteLifecycle(ctx, "data")
	_ = cl.AddTier(ctx, p.tier("COLD"), false)
	_, _ = cl.ListTiers(ctx)
	_ = cl.VerifyTier(ctx, "COLD")
	_, _ = cl.TierStats(ctx)
	_ = cl.EditTierCredentials(ctx, "COLD", remoteAK, remoteSK)
	_ = cl.RemoveTier(ctx, "COLD", true)
	_, _ = cl.DeploymentID(ctx)
	_, _ = cl.EnsureParentUser(ctx, parentFor(t, "team-a"))
	ak := DeriveAccessKey("team-a", "app", "uid-1")
	_ = cl.AddServiceAccount(ctx, newAccount(t, ak, BucketGrant{Bucket: "data", Access: ReadOnly}))
	_, _ = cl.ServiceAccountInfo(ctx, ak)
	wider, _ := SessionPolicy([]BucketGrant{{Bucket: "data", Access: ReadWrite}})
	_ = cl.UpdateServiceAccount(ctx, ak, ServiceAccountUpdate{Policy: &wider})
	_ = cl.DeleteServiceAccount(ctx, ak)
	_ = cl.SetBucketQuota(ctx, "data", 1<<20)
	_, _ = cl.GetBucketQuota(ctx, "data")
	_ = cl.ClearBucketQuota(ctx, "data")
	_, _ = cl.BucketContents(ctx, "data")
	_ = cl.DeleteBucket(ctx, "data")
}

// Every request is reported once, under the emulator's name for the route
// it reached and with the status class of its answer, and every operation
// but OpUnknown is reached by some client method.
func TestObservedOperationsAreRoutes(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			p, obs := observedPair(t, mode)
			everyCall(t, p)
			var want []string
			var statuses []int
			for _, r := range p.local.Requests() {
				want, statuses = append(want, r.Route), append(statuses, r.Status)
			}
			got := obs.list()
			var ops []string
			for i, c := range got {
				ops = append(ops, c.op)
				if i < len(statuses) && !codeFits(c.code, statuses[i]) {
					t.Errorf("request %d (%s): code %q for an answer with status %d", i, c.op, c.code, statuses[i])
				}
			}
			if diff := cmp.Diff(want, ops); diff != "" {
				t.Errorf("reported operations differ from the emulator's routes (-want +got):\n%s", diff)
			}
			seen := map[string]bool{OpUnknown: true, OpEditTier: true}
			for _, c := range got {
				seen[c.op] = true
			}
			for _, op := range Operations() {
				if !seen[op] {
					t.Errorf("operation %q was never reported: no method exercised here sends it", op)
				}
			}
		})
	}
}

// codeFits reports whether code is a right code for an answer of status:
// its status class, or a named error code for an error answer.
func codeFits(code string, status int) bool {
	return code == statusCode(status, "") || status >= 400 && labelCodes[code]
}

// A failed request is reported with a code from the bounded set: a named
// error code, else the status class, and never the server's own text.
func TestObservedFailureCodes(t *testing.T) {
	cases := map[string]struct {
		reason string
		fault  rustfstest.Fault
		want   string
	}{
		"NamedCode": {reason: "a code the client tells apart is reported as itself",
			fault: rustfstest.Fault{Status: http.StatusServiceUnavailable, Code: "SlowDown"}, want: "SlowDown"},
		"ServerText": {reason: "an unknown code is server text: only its status class is reported",
			fault: rustfstest.Fault{Status: http.StatusInternalServerError, Code: "Boom " + remoteSK}, want: "5xx"},
		"UnknownClientError": {reason: "an unknown 4xx code is reported as 4xx",
			fault: rustfstest.Fault{Status: http.StatusTeapot, Code: "ImATeapot"}, want: "4xx"},
		"Reset": {reason: "a connection reset got no answer", fault: rustfstest.Fault{Reset: true}, want: CodeNetwork},
		"Timeout": {reason: "an answer later than the deadline is a timeout",
			fault: rustfstest.Fault{Latency: 2 * time.Second}, want: CodeTimeout},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := newPair(t, rustfstest.ModeGA)
			obs := &calls{}
			cl, err := New(Config{Endpoint: p.local.URL(), AccessKey: rustfstest.DefaultAccessKey,
				SecretKey: rustfstest.DefaultSecretKey, Timeout: 200 * time.Millisecond}, WithRequestObserver(obs))
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			p.local.InjectFault(rustfstest.RouteListTiers, tc.fault)
			if _, err := cl.ListTiers(context.Background()); err == nil {
				t.Fatalf("\n%s\nListTiers: want an error", tc.reason)
			}
			want := []call{{OpListTiers, tc.want}}
			if diff := cmp.Diff(want, obs.list(), cmp.AllowUnexported(call{})); diff != "" {
				t.Errorf("\n%s\nreported (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// A redirect is never followed and is reported as 3xx; a canceled call as
// canceled.
func TestObservedRedirectAndCancel(t *testing.T) {
	srv := httptestRedirect(t)
	obs := &calls{}
	cl, err := New(Config{Endpoint: srv, AccessKey: "ak", SecretKey: "sk"}, WithRequestObserver(obs))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	_, _ = cl.ListTiers(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _ = cl.BucketExists(ctx, "data")
	want := []call{{OpListTiers, "3xx"}, {OpHeadBucket, CodeCanceled}}
	if diff := cmp.Diff(want, obs.list(), cmp.AllowUnexported(call{})); diff != "" {
		t.Errorf("reported (-want +got):\n%s", diff)
	}
}

// Status and error codes map to the bounded set.
func TestStatusCode(t *testing.T) {
	cases := map[string]struct {
		status int
		code   string
		want   string
	}{
		"OK":            {status: 200, want: "2xx"},
		"NoContent":     {status: 204, want: "2xx"},
		"Redirect":      {status: 307, want: "3xx"},
		"HeadNotFound":  {status: 404, want: "4xx"},
		"NoSuchBucket":  {status: 404, code: "NoSuchBucket", want: "NoSuchBucket"},
		"TierGA":        {status: 409, code: "XMinioAdminTierBackendInUse", want: "XMinioAdminTierBackendInUse"},
		"FreeText":      {status: 500, code: "something <b>odd</b>", want: "5xx"},
		"CodeOnSuccess": {status: 200, code: "NoSuchBucket", want: "2xx"},
		"Weird":         {status: 999, want: CodeOther},
		"Zero":          {status: 0, want: CodeOther},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := statusCode(tc.status, tc.code); got != tc.want {
				t.Errorf("statusCode(%d, %q) = %q, want %q", tc.status, tc.code, got, tc.want)
			}
			if !slices.Contains(ResultCodes(), tc.want) {
				t.Errorf("%q is not in ResultCodes()", tc.want)
			}
		})
	}
}
