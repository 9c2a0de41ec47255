package packages

import (
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A pki issues the certificates of the mTLS connection from Crossplane
// core to the function (testenv.PKI), failing the test on an error.
type pki struct{ *testenv.PKI }

func newPKI(t *testing.T) *pki {
	t.Helper()
	p, err := testenv.NewPKI()
	if err != nil {
		t.Fatal(err)
	}
	return &pki{p}
}

// issue writes tls.crt, tls.key and ca.crt into a new directory and
// returns it. A server certificate is for 127.0.0.1.
func (p *pki) issue(t *testing.T, name string, server bool) (dir string, files map[string][]byte) {
	t.Helper()
	dir = t.TempDir()
	files, err := p.Issue(dir, name, server)
	if err != nil {
		t.Fatal(err)
	}
	return dir, files
}
