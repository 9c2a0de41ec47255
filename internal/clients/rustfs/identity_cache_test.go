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

// TestIdentityJoinsRefusedConfigurationAtOneEndpoint: in a shared cache, a
// configuration refused info at an endpoint where another was told the
// deployment ID gets that ID, whichever asks first and for as long as the
// other keeps using it; another spelling of the host or a cache of its own
// stays the endpoint.
func TestIdentityJoinsRefusedConfigurationAtOneEndpoint(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)}
	s := serve(t, tierOnly)
	port := s.Addr()[strings.LastIndex(s.Addr(), ":")+1:]
	ids := NewIdentityCache(WithIdentityClock(clock.Now), WithIdentityIdle(time.Hour))
	refused := clientFor(t, "http://127.0.0.1:"+port, tierOnlyAK, tierOnlySK, WithIdentityCache(ids))
	allowed := rootClient(t, "HTTP://127.0.0.1:"+port+"/", WithIdentityCache(ids))
	check := func(what string, c *Client, want Identity) {
		t.Helper()
		if got, err := c.Identity(ctx); err != nil || got != want {
			t.Errorf("%s: want %q, got %q, %v", what, want, got, err)
		}
	}
	check("refused before anyone learned the ID", refused, endpointOf(s))
	check("allowed", allowed, deployment(s))
	check("refused after the allowed one learned the ID", refused, deployment(s))
	for range 6 { // three hours, the allowed configuration in use
		clock.Add(30 * time.Minute)
		check("allowed, in use", allowed, deployment(s))
	}
	late := clientFor(t, "http://127.0.0.1:"+port, "late", "late-secret", WithIdentityCache(ids))
	s.SetUser("late", "late-secret", "admin:ListTier")
	check("a refused configuration made later", late, deployment(s))
	check("another spelling of the host", clientFor(t, "http://localhost:"+port, tierOnlyAK, tierOnlySK, WithIdentityCache(ids)),
		Identity("endpoint:http://localhost:"+port))
	check("a cache of its own", clientFor(t, "http://127.0.0.1:"+port, tierOnlyAK, tierOnlySK), endpointOf(s))
	if n := s.Count(rustfstest.RouteServerInfo); n != 5 {
		t.Errorf("info requests = %d, want 5 (refused, allowed, late, localhost, own cache)", n)
	}
}
