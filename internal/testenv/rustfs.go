package testenv

import (
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// RustFSClient returns a RustFS client for c, as `rc admin` would use the
// deployment, to check from a test what the provider did; it fails the
// test if c is invalid.
func RustFSClient(t testing.TB, c rustfs.Config) *rustfs.Client {
	t.Helper()
	cl, err := rustfs.New(c)
	if err != nil {
		t.Fatalf("cannot create a RustFS client: %v", err)
	}
	return cl
}
