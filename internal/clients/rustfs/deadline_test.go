package rustfs

import (
	"context"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// A RustFS that answers a tier add or credentials edit after the ordinary
// deadline has passed still has its answer honoured: those calls have the
// longer remote deadline (scaled down here: 150 ms ordinary, 10 s remote,
// answers after 600 ms). A list that slow still times out, and a timeout is
// transient.
func TestRemoteCallsOutwaitTheServersOwnDeadline(t *testing.T) {
	for name, mode := range modes {
		t.Run(name, func(t *testing.T) {
			p := newPair(t, mode)
			c, err := New(Config{Endpoint: p.local.URL(), AccessKey: rustfstest.DefaultAccessKey, SecretKey: rustfstest.DefaultSecretKey,
				Timeout: 150 * time.Millisecond, RemoteTimeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			slow := rustfstest.Fault{Latency: 600 * time.Millisecond, Times: 1}
			p.local.InjectFault(rustfstest.RouteAddTier, slow)
			if err := c.AddTier(ctx, p.tier("COLD"), false); err != nil {
				t.Fatalf("AddTier answered after 600 ms: %v; want success within the remote deadline", err)
			}
			p.local.InjectFault(rustfstest.RouteEditTier, slow)
			if err := c.EditTierCredentials(ctx, "COLD", remoteAK, remoteSK); err != nil {
				t.Fatalf("EditTierCredentials answered after 600 ms: %v; want success within the remote deadline", err)
			}
			if _, ok := p.local.Tier("COLD"); !ok {
				t.Fatal("tier COLD is not registered")
			}
			p.local.InjectFault(rustfstest.RouteListTiers, slow)
			if _, err := c.ListTiers(ctx); !IsTransient(err) {
				t.Errorf("ListTiers answered after 600 ms: %v; want a transient timeout at the ordinary deadline", err)
			}
		})
	}
}

func TestDeadlines(t *testing.T) {
	c, err := New(Config{Endpoint: "http://rustfs:9000", AccessKey: "ak", SecretKey: "secret-key"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.deadline(request{}); got != DefaultTimeout {
		t.Errorf("ordinary deadline: got %s, want %s", got, DefaultTimeout)
	}
	if got := c.deadline(request{remote: true}); got != DefaultRemoteTimeout || got < 60*time.Second {
		t.Errorf("remote deadline: got %s, want %s, at least 60 s", got, DefaultRemoteTimeout)
	}
}
