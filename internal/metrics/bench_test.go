package metrics

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// BenchmarkClientRequest measures one HEAD bucket call over loopback HTTP,
// without and with the request hook, to put the hook's cost in context.
func BenchmarkClientRequest(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	cfg := rustfs.Config{Endpoint: srv.URL, AccessKey: "ak", SecretKey: "sk"}
	for name, opts := range map[string][]rustfs.Option{
		"NoObserver": nil,
		"Observed":   {rustfs.WithRequestObserver(Requests)},
	} {
		b.Run(name, func(b *testing.B) {
			cl, err := rustfs.New(cfg, opts...)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := cl.BucketExists(context.Background(), "data"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
