package rustfs

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

const (
	tierOnlyAK = "tiers"
	tierOnlySK = "tiers-secret"
)

// tierOnly is a user allowed the tier actions but not admin:ServerInfo.
var tierOnly = rustfstest.WithUser(tierOnlyAK, tierOnlySK, "admin:SetTier", "admin:ListTier")

// clientFor returns a client for endpoint with the given keys and options.
func clientFor(t *testing.T, endpoint, ak, sk string, opts ...Option) *Client {
	t.Helper()
	c, err := New(Config{Endpoint: endpoint, AccessKey: ak, SecretKey: sk, Timeout: 5 * time.Second}, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func rootClient(t *testing.T, endpoint string, opts ...Option) *Client {
	t.Helper()
	return clientFor(t, endpoint, rustfstest.DefaultAccessKey, rustfstest.DefaultSecretKey, opts...)
}

// serve starts an emulator closed at cleanup.
func serve(t *testing.T, opts ...rustfstest.Option) *rustfstest.Server {
	t.Helper()
	s := rustfstest.NewServer(opts...)
	t.Cleanup(s.Close)
	return s
}

// A fakeClock is a settable clock safe for concurrent use.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func deployment(s *rustfstest.Server) Identity { return Identity("deployment:" + s.DeploymentID()) }
func endpointOf(s *rustfstest.Server) Identity { return Identity("endpoint:http://" + s.Addr()) }

// An identityCase is one answer of the info route and the outcome it must give.
type identityCase struct {
	reason  string
	opts    []rustfstest.Option
	fault   *rustfstest.Fault
	ak, sk  string                            // default: root
	want    func(*rustfstest.Server) Identity // the identity, when no error is wanted
	wantErr func(error) bool                  // a property of the wanted error
}

// identityCases are the answers of docs/rustfs-wire.md §15.2-§15.5.
func identityCases() map[string]identityCase {
	return map[string]identityCase{
		"DeploymentID": {reason: "root may read info", want: deployment},
		"SetDeploymentID": {reason: "the ID is taken as the server sends it",
			opts: []rustfstest.Option{rustfstest.WithDeploymentID("one-rustfs")},
			want: func(*rustfstest.Server) Identity { return "deployment:one-rustfs" }},
		"NullIDFallsBack": {reason: "RustFS before beta.5 answers null",
			opts: []rustfstest.Option{rustfstest.WithDeploymentID("")}, want: endpointOf},
		"AccessDeniedFallsBack": {reason: "a user without admin:ServerInfo is refused",
			opts: []rustfstest.Option{tierOnly}, ak: tierOnlyAK, sk: tierOnlySK, want: endpointOf},
		"NotImplementedFallsBack": {reason: "a server without the route answers 501",
			fault: &rustfstest.Fault{Status: 501, Code: "NotImplemented"}, want: endpointOf},
		"NotFoundFallsBack": {reason: "a server where the path is no admin route answers 404",
			fault: &rustfstest.Fault{Status: 404, Code: "NoSuchBucket"}, want: endpointOf},
		"UnavailableIsError": {reason: "503 before the server context is ready is transient",
			fault:   &rustfstest.Fault{Status: 503, Code: "ServiceUnavailable", Message: "server context is not ready"},
			wantErr: IsTransient},
		"IAMNotReadyIsError": {reason: "500 iam not init is transient",
			fault: &rustfstest.Fault{Status: 500, Code: "InternalError", Message: "iam not init"}, wantErr: IsTransient},
		"ResetIsError": {reason: "a reset connection is transient",
			fault: &rustfstest.Fault{Reset: true}, wantErr: IsTransient},
		"UnknownKeyIsError": {reason: "a credential the server does not know proves nothing",
			ak: "nobody", sk: "nothing", wantErr: IsAccessDenied},
		"WrongSecretIsError": {reason: "a wrong signature proves nothing",
			ak: rustfstest.DefaultAccessKey, sk: "wrong", wantErr: IsAccessDenied},
		"MalformedIDIsError": {reason: "an ID outside the safe alphabet is neither trusted nor echoed",
			opts:    []rustfstest.Option{rustfstest.WithDeploymentID("id with <markup>")},
			wantErr: func(err error) bool { return !strings.Contains(err.Error(), "markup") }},
	}
}

// TestIdentityOutcomes: each answer of the info route gives the deployment
// ID, the endpoint fallback, or an error the caller retries (never a
// refusal); each costs exactly one info request.
func TestIdentityOutcomes(t *testing.T) {
	for name, tc := range identityCases() {
		for mode, m := range modes {
			t.Run(name+"/"+mode, func(t *testing.T) {
				s := serve(t, append([]rustfstest.Option{rustfstest.WithMode(m)}, tc.opts...)...)
				if tc.fault != nil {
					s.InjectFault(rustfstest.RouteServerInfo, *tc.fault)
				}
				ak, sk := tc.ak, tc.sk
				if ak == "" {
					ak, sk = rustfstest.DefaultAccessKey, rustfstest.DefaultSecretKey
				}
				got, err := clientFor(t, s.URL(), ak, sk).Identity(context.Background())
				switch {
				case tc.wantErr != nil && (err == nil || IsInfoRefused(err) || !tc.wantErr(err)):
					t.Errorf("%s: want a retryable error, not a refusal; got %q, %v", tc.reason, got, err)
				case tc.wantErr == nil && (err != nil || got != tc.want(s)):
					t.Errorf("%s: want %q, got %q, %v", tc.reason, tc.want(s), got, err)
				}
				if n := s.Count(rustfstest.RouteServerInfo); n != 1 {
					t.Errorf("%s: info requests = %d, want 1", tc.reason, n)
				}
			})
		}
	}
}

// TestIdentityJoinsSpellingsOfOneDeployment: 127.0.0.1 and localhost URLs of
// one emulator, or two emulators with one deployment ID, are one RustFS;
// refused, the two spellings stay two endpoints.
func TestIdentityJoinsSpellingsOfOneDeployment(t *testing.T) {
	ctx := context.Background()
	s := serve(t, tierOnly)
	port := s.Addr()[strings.LastIndex(s.Addr(), ":")+1:]
	spellings := []string{"http://127.0.0.1:" + port, "http://LOCALHOST:" + port + "/"}
	var ids, refused []Identity
	for _, ep := range spellings {
		id, err := rootClient(t, ep).Identity(ctx)
		if err != nil {
			t.Fatalf("Identity(%s): %v", ep, err)
		}
		ids = append(ids, id)
		fb, err := clientFor(t, ep, tierOnlyAK, tierOnlySK).Identity(ctx)
		if err != nil {
			t.Fatalf("Identity(%s) as %s: %v", ep, tierOnlyAK, err)
		}
		refused = append(refused, fb)
	}
	if ids[0] != ids[1] || ids[0] != deployment(s) || !ids[0].IsDeployment() {
		t.Errorf("two spellings of one emulator: want %q twice, got %q", deployment(s), ids)
	}
	want := []Identity{Identity("endpoint:http://127.0.0.1:" + port), Identity("endpoint:http://localhost:" + port)}
	if refused[0] != want[0] || refused[1] != want[1] || refused[0].IsDeployment() {
		t.Errorf("refused: want %q, got %q", want, refused)
	}

	a, b := serve(t, rustfstest.WithDeploymentID("same")), serve(t, rustfstest.WithDeploymentID("same"))
	other := serve(t)
	idA, errA := rootClient(t, a.URL()).Identity(ctx)
	idB, errB := rootClient(t, b.URL()).Identity(ctx)
	idO, errO := rootClient(t, other.URL()).Identity(ctx)
	if errA != nil || errB != nil || errO != nil || idA != idB || idA == idO {
		t.Errorf("emulators sharing an ID must be one RustFS and others not: %q %q %q (%v %v %v)", idA, idB, idO, errA, errB, errO)
	}
}

// TestIdentityAsksOncePerConfiguration: many lookups, re-created clients and
// concurrent lookups share one info request per configuration in a shared
// cache; another configuration asks for itself.
func TestIdentityAsksOncePerConfiguration(t *testing.T) {
	ctx := context.Background()
	s := serve(t, rustfstest.WithUser("viewer", "viewer-secret", "admin:ServerInfo"))
	s.InjectFault(rustfstest.RouteServerInfo, rustfstest.Fault{Latency: 50 * time.Millisecond}) // overlap the concurrent lookups
	ids := NewIdentityCache()
	got := make([]Identity, 20)
	errs := make([]error, 20)
	var wg sync.WaitGroup
	for i := range got {
		c := rootClient(t, s.URL(), WithIdentityCache(ids)) // a client per lookup, as a pool without clients would
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = c.Identity(ctx)
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || got[i] != deployment(s) {
			t.Errorf("concurrent Identity %d: want %q, got %q, %v", i, deployment(s), got[i], errs[i])
		}
	}
	c := rootClient(t, s.URL(), WithIdentityCache(ids))
	for range 50 {
		if _, err := c.Identity(ctx); err != nil {
			t.Fatalf("Identity: %v", err)
		}
	}
	if n := s.Count(rustfstest.RouteServerInfo); n != 1 {
		t.Errorf("one configuration, shared cache: info requests = %d, want 1", n)
	}
	if _, err := clientFor(t, s.URL(), "viewer", "viewer-secret", WithIdentityCache(ids)).Identity(ctx); err != nil {
		t.Fatalf("Identity as viewer: %v", err)
	}
	if _, err := rootClient(t, s.URL()).Identity(ctx); err != nil {
		t.Fatalf("Identity with a cache of its own: %v", err)
	}
	if n := s.Count(rustfstest.RouteServerInfo); n != 3 {
		t.Errorf("another configuration and another cache each ask once: info requests = %d, want 3", n)
	}
}

// TestIdentityCacheLifetimes: a refusal is re-checked after the refusal TTL,
// so a permission granted later is picked up; a deployment ID is kept while
// used and forgotten after an idle period; errors are never kept.
func TestIdentityCacheLifetimes(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)}
	s := serve(t, tierOnly)
	ids := NewIdentityCache(WithIdentityClock(clock.Now), WithRefusalTTL(5*time.Minute), WithIdentityIdle(time.Hour))
	c := clientFor(t, s.URL(), tierOnlyAK, tierOnlySK, WithIdentityCache(ids))
	step := func(advance time.Duration, want Identity, requests int) {
		t.Helper()
		clock.Add(advance)
		got, err := c.Identity(ctx)
		if err != nil || got != want {
			t.Fatalf("after %s: want %q, got %q, %v", advance, want, got, err)
		}
		if n := s.Count(rustfstest.RouteServerInfo); n != requests {
			t.Fatalf("after %s: info requests = %d, want %d", advance, n, requests)
		}
	}
	step(0, endpointOf(s), 1)
	step(4*time.Minute, endpointOf(s), 1)
	s.SetUser(tierOnlyAK, tierOnlySK, "admin:SetTier", "admin:ListTier", "admin:ServerInfo")
	step(time.Minute, deployment(s), 2)
	for range 100 { // 50 hours of lookups every 30 minutes
		step(30*time.Minute, deployment(s), 2)
	}
	step(2*time.Hour, deployment(s), 3)

	s.InjectFault(rustfstest.RouteServerInfo, rustfstest.Fault{Status: http.StatusServiceUnavailable, Code: "ServiceUnavailable", Times: 1})
	fresh := rootClient(t, s.URL(), WithIdentityCache(ids))
	if _, err := fresh.Identity(ctx); !IsTransient(err) {
		t.Fatalf("503: want a transient error, got %v", err)
	}
	if got, err := fresh.Identity(ctx); err != nil || got != deployment(s) {
		t.Fatalf("after a 503: want %q, got %q, %v", deployment(s), got, err)
	}
	if n := s.Count(rustfstest.RouteServerInfo); n != 5 {
		t.Errorf("an error must not be kept: info requests = %d, want 5", n)
	}
}

// BenchmarkIdentityCached measures a lookup answered from the cache, the
// cost a reconcile pays once the identity is known.
func BenchmarkIdentityCached(b *testing.B) {
	s := rustfstest.NewServer()
	defer s.Close()
	c, err := New(Config{Endpoint: s.URL(), AccessKey: rustfstest.DefaultAccessKey, SecretKey: rustfstest.DefaultSecretKey})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Identity(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Identity(ctx); err != nil {
				b.Error(err)
			}
		}
	})
	if n := s.Count(rustfstest.RouteServerInfo); n != 1 {
		b.Errorf("info requests = %d, want 1", n)
	}
}
