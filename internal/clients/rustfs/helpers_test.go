package rustfs

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

const (
	remoteAK     = "remote-ak"
	remoteSK     = "remote-sk-sentinel-SECRET"
	remoteBucket = "cold"
)

var modes = map[string]rustfstest.Mode{"RC": rustfstest.ModeRC, "GA": rustfstest.ModeGA}

// A pair is a local emulator (the RustFS the provider manages), a remote
// emulator (the tier's backend) and a client for the local one.
type pair struct {
	client *Client
	local  *rustfstest.Server
	remote *rustfstest.Server
}

func newPair(t *testing.T, mode rustfstest.Mode, opts ...rustfstest.Option) pair {
	t.Helper()
	remote := rustfstest.NewServer(rustfstest.WithMode(mode), rustfstest.WithRootCredentials(remoteAK, remoteSK))
	remote.CreateBucket(remoteBucket, false)
	local := rustfstest.NewServer(append([]rustfstest.Option{rustfstest.WithMode(mode)}, opts...)...)
	t.Cleanup(local.Close)
	t.Cleanup(remote.Close)
	c, err := New(Config{Endpoint: local.URL(), AccessKey: rustfstest.DefaultAccessKey,
		SecretKey: rustfstest.DefaultSecretKey, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return pair{client: c, local: local, remote: remote}
}

// tier returns a rustfs-type tier on the pair's remote.
func (p pair) tier(name string) Tier {
	return Tier{Type: TierRustFS, Name: name, Endpoint: p.remote.TierURL(), AccessKey: remoteAK, SecretKey: remoteSK,
		Bucket: remoteBucket, Prefix: "tiered/", Region: "us-east-1"}
}

// clientAs returns a client for the pair's local emulator with other keys.
func (p pair) clientAs(t *testing.T, ak, sk string) *Client {
	t.Helper()
	c, err := New(Config{Endpoint: p.local.URL(), AccessKey: ak, SecretKey: sk, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func ptr[T any](v T) *T { return &v }

// httptestRedirect returns the URL of a server that redirects every request.
func httptestRedirect(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.invalid/", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
