package rustfs

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// testCA is the PEM certificate every httptest TLS server presents; it is
// its own CA.
func testCA(t *testing.T) []byte {
	t.Helper()
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

func transportOf(t *testing.T, c Config) *http.Transport {
	t.Helper()
	cl, err := New(c)
	if err != nil {
		t.Fatalf("New(%v): %v", c, err)
	}
	return cl.http.Transport.(*http.Transport)
}

func TestClientsShareTransportsByTLSSettings(t *testing.T) {
	ca := testCA(t)
	https := func(mod func(*Config)) Config {
		c := Config{Endpoint: "https://rustfs.example:9000", AccessKey: "AK", SecretKey: "SK", CABundle: ca}
		mod(&c)
		return c
	}
	same := func(*Config) {}
	cases := map[string]struct {
		reason string
		a, b   Config
		shared bool
	}{
		"OtherEndpointAndKeys": {reason: "The transport holds no endpoint or credential: clients of the same TLS settings share it.",
			a: https(same), b: https(func(c *Config) { c.Endpoint, c.AccessKey, c.SecretKey = "https://other:9000", "AK2", "SK2" }), shared: true},
		"SameCAInAnotherSlice": {reason: "The CA bundle is compared by its bytes.",
			a: https(same), b: https(func(c *Config) { c.CABundle = append([]byte(nil), ca...) }), shared: true},
		"OtherCA": {reason: "Another CA bundle gets a transport of its own.",
			a: https(same), b: https(func(c *Config) { c.CABundle = append(append([]byte(nil), ca...), '\n') })},
		"NoCA": {reason: "The system roots alone are other TLS settings.",
			a: https(same), b: https(func(c *Config) { c.CABundle = nil })},
		"Insecure": {reason: "Skipping verification gets a transport of its own.",
			a: https(same), b: https(func(c *Config) { c.InsecureSkipVerify = true })},
		"HTTPIgnoresTLS": {reason: "An http endpoint uses no TLS settings, so all of them share one transport.",
			a: https(func(c *Config) { c.Endpoint = "http://a:9000" }), b: https(func(c *Config) { c.Endpoint, c.CABundle, c.InsecureSkipVerify = "http://b:9000", nil, true }), shared: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := transportOf(t, tc.a) == transportOf(t, tc.b); got != tc.shared {
				t.Errorf("%s\nshared transport: got %t, want %t", tc.reason, got, tc.shared)
			}
		})
	}
}

// A shared transport verifies with its own TLS settings: a client without
// the CA is refused after one with it connected, and the other way round.
func TestSharedTransportsKeepTheirTLSSettings(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	steps := []struct {
		name    string
		mod     func(*Config)
		refused bool
	}{
		{name: "WithCA", mod: func(c *Config) { c.CABundle = ca }},
		{name: "SystemRoots", mod: func(*Config) {}, refused: true},
		{name: "Insecure", mod: func(c *Config) { c.InsecureSkipVerify = true }},
		{name: "WithCAAgain", mod: func(c *Config) { c.CABundle = ca }},
		{name: "SystemRootsAgain", mod: func(*Config) {}, refused: true},
	}
	for _, s := range steps {
		c := Config{Endpoint: srv.URL, AccessKey: "AK", SecretKey: "SK"}
		s.mod(&c)
		cl, err := New(c)
		if err != nil {
			t.Fatalf("%s: New: %v", s.name, err)
		}
		rsp, err := cl.http.Get(srv.URL)
		if err == nil {
			_ = rsp.Body.Close()
		}
		if refused := err != nil && strings.Contains(err.Error(), "certificate"); refused != s.refused || err != nil && !refused {
			t.Errorf("%s: got error %v, want a certificate error: %t", s.name, err, s.refused)
		}
	}
}

func TestTransportsAreBounded(t *testing.T) {
	ca := testCA(t)
	for i := range 2 * maxTransports {
		c := Config{Endpoint: "https://rustfs.example:9000", AccessKey: "AK", SecretKey: "SK", CABundle: append(append([]byte(nil), ca...), strings.Repeat("\n", i+2)...)}
		transportOf(t, c)
	}
	transports.mu.Lock()
	n := len(transports.m)
	transports.mu.Unlock()
	if n > maxTransports {
		t.Errorf("shared transports: got %d, want at most %d", n, maxTransports)
	}
}

func TestInvalidCABundleIsNotRemembered(t *testing.T) {
	c := Config{Endpoint: "https://rustfs.example:9000", AccessKey: "AK", SecretKey: "SK", CABundle: []byte("not a certificate")}
	for i := range 2 {
		if _, err := New(c); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
			t.Errorf("New #%d: got %v, want a CA bundle error", i+1, err)
		}
	}
}
