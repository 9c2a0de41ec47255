package rustfs

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// A 307 to a tier add or a credentials edit is never followed: the host the
// Location names receives nothing, and the error names that host but not the
// Location's path or query, nor any key.
func TestRedirectsAreNeverFollowed(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		elsewhere.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer other.Close()
	otherHost := strings.TrimPrefix(other.URL, "http://")
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", other.URL+"/collect/path-part?token=query-part")
		w.WriteHeader(http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()
	c, err := New(Config{Endpoint: redirector.URL, AccessKey: "admin-ak", SecretKey: sentinel})
	if err != nil {
		t.Fatal(err)
	}
	tier := Tier{Type: TierS3, Name: "COLD", Endpoint: "https://s3.example.com", AccessKey: "tier-ak",
		SecretKey: remoteSK, Bucket: "b", Region: "us-east-1"}
	cases := map[string]func(context.Context) error{
		"AddTier":             func(ctx context.Context) error { return c.AddTier(ctx, tier, false) },
		"EditTierCredentials": func(ctx context.Context) error { return c.EditTierCredentials(ctx, "COLD", "tier-ak", remoteSK) },
	}
	for name, call := range cases {
		t.Run(name, func(t *testing.T) {
			err := call(context.Background())
			if !IsRedirect(err) || IsTransient(err) {
				t.Fatalf("error %v: IsRedirect %t, IsTransient %t; want a redirect error that is not transient", err, IsRedirect(err), IsTransient(err))
			}
			msg := err.Error()
			if !strings.Contains(msg, `"`+otherHost+`"`) || !strings.Contains(msg, "never follows redirects") {
				t.Errorf("error %q: want it to name host %q and say redirects are not followed", msg, otherHost)
			}
			for _, hidden := range []string{"path-part", "query-part", sentinel, remoteSK} {
				if strings.Contains(msg, hidden) {
					t.Errorf("error %q shows %q", msg, hidden)
				}
			}
		})
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the host the Location names received %d requests, want 0", n)
	}
}

// A relative Location names the endpoint's own host; a 3xx without one says so.
func TestRedirectErrorHost(t *testing.T) {
	cases := map[string]struct {
		reason   string
		location string
		want     string
	}{
		"Absolute": {reason: "An absolute Location names its host and port.", location: "https://evil.example:8443/x?y=z", want: "evil.example:8443"},
		"Relative": {reason: "A relative Location resolves against the endpoint.", location: "/elsewhere", want: "rustfs.local:9000"},
		"None":     {reason: "A 3xx without a Location names no host.", location: "", want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req := &http.Request{URL: &url.URL{Scheme: "http", Host: "rustfs.local:9000", Path: "/rustfs/admin/v3/tier"}}
			resp := &http.Response{StatusCode: http.StatusFound, Header: http.Header{}, Request: req}
			if tc.location != "" {
				resp.Header.Set("Location", tc.location)
			}
			if got := redirectError(resp, nil).Host; got != tc.want {
				t.Errorf("%s\nHost: got %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
}
