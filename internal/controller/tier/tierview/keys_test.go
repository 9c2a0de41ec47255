package tierview

import (
	"context"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

func listWithClient(ctx context.Context, c rustfs.Config) ([]rustfs.Tier, error) {
	cl, err := rustfs.New(c)
	if err != nil {
		return nil, err
	}
	return cl.ListTiers(ctx)
}

// Against the emulator over HTTP: once a configuration's list is shared, a
// configuration with the same endpoint and access key but a wrong secret
// key, or one that would not accept the server's certificate, is not served
// that list: it asks RustFS itself, and RustFS refuses it.
func TestSharedListIsNeverServedToOtherCredentials(t *testing.T) {
	s := rustfstest.NewServer(rustfstest.WithTLS())
	defer s.Close()
	s.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD", Endpoint: "http://remote.rustfs.test:9000", Bucket: "b"})
	at := func(sk string, insecure bool) *connection.Connection {
		return &connection.Connection{Endpoint: s.URL(), Config: rustfs.Config{Endpoint: s.URL(), AccessKey: rustfstest.DefaultAccessKey,
			SecretKey: sk, InsecureSkipVerify: insecure, Timeout: 5 * time.Second}}
	}
	v := New(listWithClient, time.Hour)
	ctx := context.Background()
	if tiers, err := v.List(ctx, at(rustfstest.DefaultSecretKey, true)); err != nil || len(tiers) != 1 {
		t.Fatalf("List with the real keys: %d tiers, %v; want COLD", len(tiers), err)
	}
	cases := map[string]struct {
		reason string
		conn   *connection.Connection
		is     func(error) bool
	}{
		"WrongSecretKey": {reason: "The right access key with a wrong secret key is refused by RustFS.",
			conn: at("wrong-secret-key", true), is: rustfs.IsAccessDenied},
		"VerifiesTLS": {reason: "A configuration that verifies the certificate cannot reach this server.",
			conn: at(rustfstest.DefaultSecretKey, false), is: func(err error) bool { return err != nil }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := s.Count(rustfstest.RouteListTiers)
			tiers, err := v.List(ctx, tc.conn)
			if tiers != nil || !tc.is(err) {
				t.Errorf("%s\nList: %d tiers, error %v; want no tiers and the refusal", tc.reason, len(tiers), err)
			}
			if name == "WrongSecretKey" && s.Count(rustfstest.RouteListTiers) != before+1 {
				t.Errorf("%s\nRustFS saw %d lists, want one more: the wrong key must be checked by RustFS", tc.reason, s.Count(rustfstest.RouteListTiers)-before)
			}
		})
	}
}
