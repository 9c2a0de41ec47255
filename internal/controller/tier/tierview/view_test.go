package tierview

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

const (
	endpointA = "http://rustfs-a:9000"
	endpointB = "http://rustfs-b:9000"
	// sentinelKey is a secret key that must never appear in a key or a
	// change.
	sentinelKey = "SENTINEL-SECRET-never-shown"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

var errList = errors.New("list failed")

// A lister is a fake ListFunc that counts requests. Request i answers
// lists[i] (the last one repeats), numbered when it arrives; with a gate,
// each request then waits until the test sends on it or closes it, and
// request i waits for gates[i] if there is one.
type lister struct {
	mu      sync.Mutex
	arrived int
	lists   [][]rustfs.Tier
	err     error
	gate    chan struct{}
	gates   []chan struct{}
}

func (l *lister) list(ctx context.Context, _ rustfs.Config) ([]rustfs.Tier, error) {
	l.mu.Lock()
	n := l.arrived
	l.arrived++
	gate := l.gate
	if n < len(l.gates) {
		gate = l.gates[n]
	}
	l.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if l.err != nil {
		return nil, l.err
	}
	if len(l.lists) == 0 {
		return nil, nil
	}
	return l.lists[min(n, len(l.lists)-1)], nil
}

// count returns how many requests arrived.
func (l *lister) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.arrived
}

// arrivedN returns a condition that holds once n requests arrived.
func (l *lister) arrivedN(n int) func() bool { return func() bool { return l.count() >= n } }

// A clock is a settable time.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func conn(endpoint, accessKey string) *connection.Connection {
	return &connection.Connection{
		Config:   rustfs.Config{Endpoint: endpoint, AccessKey: accessKey, SecretKey: sentinelKey},
		Endpoint: endpoint,
	}
}

func tierNamed(name string, m ...func(*rustfs.Tier)) rustfs.Tier {
	t := rustfs.Tier{Type: rustfs.TierRustFS, Name: name, Endpoint: "http://remote:9000", AccessKey: "AKTIER",
		SecretKey: "REDACTED", Bucket: "tiers", Prefix: strings.ToLower(name) + "/"}
	for _, f := range m {
		f(&t)
	}
	return t
}

// A step is one thing a test does to a View: advance the clock, then
// invalidate or list through a connection.
type step struct {
	after      time.Duration
	conn       *connection.Connection
	invalidate bool
}

func TestListSharesOneRequestPerRefreshInterval(t *testing.T) {
	const refresh = time.Minute
	a, a2, b := conn(endpointA, "AKADMIN"), conn(endpointA, "AKOTHER"), conn(endpointB, "AKADMIN")
	cases := map[string]struct {
		reason string
		steps  []step
		want   int
	}{
		"FirstListRequests":        {reason: "Nothing is stored before the first list.", steps: []step{{conn: a}}, want: 1},
		"FreshListIsShared":        {reason: "Readers within the refresh interval share one request.", steps: []step{{conn: a}, {after: refresh - time.Second, conn: a}, {conn: a}}, want: 1},
		"StaleListIsRequestedOnce": {reason: "A list one refresh interval old is requested again, once.", steps: []step{{conn: a}, {after: refresh, conn: a}, {conn: a}}, want: 2},
		"WriteInvalidates":         {reason: "The provider's own write makes the next reader request a list.", steps: []step{{conn: a}, {invalidate: true, conn: a}, {conn: a}, {conn: a}}, want: 2},
		"InvalidateUnknownIsNoop":  {reason: "Invalidating an endpoint never listed requests nothing.", steps: []step{{invalidate: true, conn: b}, {conn: a}}, want: 1},
		"WriteElsewhereKeepsList":  {reason: "A write on another endpoint does not invalidate this one.", steps: []step{{conn: a}, {invalidate: true, conn: b}, {conn: a}}, want: 1},
		"EndpointsListApart":       {reason: "Each endpoint has its own list.", steps: []step{{conn: a}, {conn: b}, {conn: a}, {conn: b}}, want: 2},
		"CredentialsListApart":     {reason: "Other credentials may see other tiers, so they list apart.", steps: []step{{conn: a}, {conn: a2}, {conn: a}}, want: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l, clk := &lister{}, &clock{now: t0}
			v := New(l.list, refresh, WithClock(clk.Now))
			for _, s := range tc.steps {
				clk.advance(s.after)
				if s.invalidate {
					v.Invalidate(s.conn)
					continue
				}
				if _, err := v.List(context.Background(), s.conn); err != nil {
					t.Fatalf("List: %v", err)
				}
			}
			if got := l.count(); got != tc.want {
				t.Errorf("%s\nlist requests: got %d, want %d", tc.reason, got, tc.want)
			}
		})
	}
}

func TestListReturnsTheListAndErrors(t *testing.T) {
	cold := []rustfs.Tier{tierNamed("COLD")}
	cases := map[string]struct {
		reason    string
		lister    *lister
		wantTiers []rustfs.Tier
		wantErr   error
		wantCalls int
	}{
		"List": {
			reason: "The reader gets what RustFS lists.", lister: &lister{lists: [][]rustfs.Tier{cold}},
			wantTiers: cold, wantCalls: 1,
		},
		"ErrorIsNotStored": {
			reason: "A failed request answers its readers with the error and is not stored, so the next reader asks again.",
			lister: &lister{err: errList}, wantErr: errList, wantCalls: 2,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			v := New(tc.lister.list, time.Minute, WithClock(func() time.Time { return t0 }))
			var got []rustfs.Tier
			var err error
			for range 2 {
				got, err = v.List(context.Background(), conn(endpointA, "AKADMIN"))
			}
			if diff := cmp.Diff(tc.wantErr, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("%s\nerror: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantTiers, got); diff != "" {
				t.Errorf("%s\ntiers: -want +got:\n%s", tc.reason, diff)
			}
			if n := tc.lister.count(); n != tc.wantCalls {
				t.Errorf("%s\nlist requests: got %d, want %d", tc.reason, n, tc.wantCalls)
			}
		})
	}
}

func TestKeyHoldsNoCredential(t *testing.T) {
	k := KeyOf(conn(endpointA, "AKADMIN"))
	if strings.Contains(k.Identity, "AKADMIN") || strings.Contains(k.Identity, sentinelKey) || k.Endpoint != endpointA {
		t.Errorf("KeyOf: %+v; want the endpoint and a digest of the credentials only", k)
	}
	if KeyOf(conn(endpointA, "AKOTHER")) == k {
		t.Error("KeyOf: two access keys give the same key")
	}
}

// A list read with one secret key never answers a reader with another, nor
// with other TLS settings: a read that succeeds is what proves access.
func TestKeyCoversEverythingThatAuthenticates(t *testing.T) {
	base := conn(endpointA, "AKADMIN")
	for name, change := range map[string]func(c *connection.Connection){
		"SecretKey": func(c *connection.Connection) { c.Config.SecretKey = "made-up" },
		"Region":    func(c *connection.Connection) { c.Config.Region = "eu-west-1" },
		"CABundle":  func(c *connection.Connection) { c.Config.CABundle = []byte("other CA") },
		"Insecure":  func(c *connection.Connection) { c.Config.InsecureSkipVerify = true },
	} {
		t.Run(name, func(t *testing.T) {
			other := conn(endpointA, "AKADMIN")
			change(other)
			if KeyOf(other) == KeyOf(base) {
				t.Errorf("KeyOf: a different %s gives the same key", name)
			}
		})
	}
}
