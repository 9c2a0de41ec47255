package clientpool

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

const sentinelSecret = "SENTINEL-secret-key-never-shown"

var errNew = errors.New("cannot make client")

// A fake client records the configuration it was made for.
type fake struct{ cfg rustfs.Config }

// A maker counts the clients it makes and fails while err is set.
type maker struct {
	mu   sync.Mutex
	made int
	err  error
}

func (m *maker) newClient(c rustfs.Config) (*fake, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return nil, m.err
	}
	m.made++
	return &fake{cfg: c}, nil
}

func base() rustfs.Config {
	return rustfs.Config{Endpoint: "http://rustfs:9000", Region: "us-east-1", AccessKey: "AKADMIN", SecretKey: sentinelSecret}
}

func TestGetSharesClientsOfTheSameConfiguration(t *testing.T) {
	cases := map[string]struct {
		reason string
		other  func(*rustfs.Config)
		same   bool
	}{
		"Same":      {reason: "The same configuration shares one client.", other: func(*rustfs.Config) {}, same: true},
		"Endpoint":  {reason: "Another endpoint gets its own client.", other: func(c *rustfs.Config) { c.Endpoint = "http://other:9000" }},
		"Region":    {reason: "Another signing region gets its own client.", other: func(c *rustfs.Config) { c.Region = "eu-west-1" }},
		"AccessKey": {reason: "Other credentials get their own client.", other: func(c *rustfs.Config) { c.AccessKey = "AKOTHER" }},
		"SecretKey": {reason: "A rotated secret key gets a new client.", other: func(c *rustfs.Config) { c.SecretKey = "rotated" }},
		"CABundle":  {reason: "Another CA bundle gets its own client.", other: func(c *rustfs.Config) { c.CABundle = []byte("pem") }},
		"Insecure":  {reason: "Skipping TLS verification gets its own client.", other: func(c *rustfs.Config) { c.InsecureSkipVerify = true }},
		"Timeout":   {reason: "Another timeout gets its own client.", other: func(c *rustfs.Config) { c.Timeout = time.Second }},
		"UserAgent": {reason: "Another user agent gets its own client.", other: func(c *rustfs.Config) { c.UserAgent = "x" }},
		"Boundary":  {reason: "Fields are delimited: moving a byte between two fields is another configuration.", other: func(c *rustfs.Config) { c.Endpoint, c.Region = c.Endpoint+"u", "s-east-1" }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := &maker{}
			p := New(time.Hour, m.newClient)
			other := base()
			tc.other(&other)
			a, err1 := p.Get(base())
			b, err2 := p.Get(other)
			if err1 != nil || err2 != nil {
				t.Fatalf("Get: %v, %v", err1, err2)
			}
			if (a == b) != tc.same || (m.made == 1) != tc.same {
				t.Errorf("%s\nshared: %t after %d clients made; want shared %t", tc.reason, a == b, m.made, tc.same)
			}
			if b.cfg.Endpoint != other.Endpoint {
				t.Errorf("the client was made for %q, want %q", b.cfg.Endpoint, other.Endpoint)
			}
		})
	}
}

func TestFailureIsNotRemembered(t *testing.T) {
	m := &maker{err: errNew}
	get := Shared(time.Hour, m.newClient)
	if _, err := get(base()); !cmp.Equal(err, errNew, cmpopts.EquateErrors()) {
		t.Fatalf("Get: got %v, want %v", err, errNew)
	}
	m.err = nil
	if c, err := get(base()); err != nil || c == nil || m.made != 1 {
		t.Errorf("after the failure: got %v, %v with %d made; want a new client", c, err, m.made)
	}
}

func TestIdleClientsAreForgotten(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	m := &maker{}
	p := New(time.Minute, m.newClient, WithClock(func() time.Time { return now }))
	for i := range 300 {
		c := base()
		c.AccessKey = strings.Repeat("k", i+1)
		if _, err := p.Get(c); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Second)
	}
	// A sweep once per idle period keeps at most two periods' worth.
	if n := p.Len(); n > 120 {
		t.Errorf("clients kept after 300 configurations used once, one a second, idle 1m: got %d, want at most 120", n)
	}
	now = now.Add(time.Hour)
	if _, err := p.Get(base()); err != nil || p.Len() != 1 {
		t.Errorf("after an idle hour: %d clients kept (%v); want only the one just asked for", p.Len(), err)
	}
}

func TestKeyHoldsNoCredential(t *testing.T) {
	k := key(base())
	if strings.Contains(k, sentinelSecret) || strings.Contains(k, "AKADMIN") {
		t.Error("the pool key contains a credential")
	}
}

func TestConcurrentGetsShareOneClient(t *testing.T) {
	m := &maker{}
	get := Shared(time.Hour, m.newClient)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if _, err := get(base()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if m.made != 1 {
		t.Errorf("clients made for 50 concurrent Gets of one configuration: got %d, want 1", m.made)
	}
}
