package rustfs

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"sync"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Clients share their HTTP transport, and so its connection pool, with
// every client of the same TLS settings. A Client is therefore cheap to
// make: a controller may make one per reconcile without opening a
// connection per reconcile or leaving idle connections behind in
// transports nobody uses again. The transport holds no credential and no
// endpoint; requests are signed per client.

// maxTransports bounds the shared transports. Each distinct CA bundle
// makes one; when the bound is reached the transports are forgotten (their
// idle connections closed) and made anew on demand. Clients that hold a
// forgotten transport keep working.
const maxTransports = 64

// A tlsKey is what decides a transport: the TLS settings of an https
// endpoint. Every http endpoint uses the zero key.
type tlsKey struct {
	insecure bool
	ca       [sha256.Size]byte // digest of the CA bundle; zero when none
}

var transports = struct {
	mu sync.Mutex
	m  map[tlsKey]*http.Transport
}{m: map[tlsKey]*http.Transport{}}

// transport returns the shared transport for c's TLS settings, making it
// when there is none. An invalid CA bundle is an error, never remembered.
func transport(c Config, https bool) (*http.Transport, error) {
	var k tlsKey
	if https {
		k.insecure = c.InsecureSkipVerify
		if len(c.CABundle) > 0 {
			k.ca = sha256.Sum256(c.CABundle)
		}
	}
	transports.mu.Lock()
	defer transports.mu.Unlock()
	if tr, ok := transports.m[k]; ok {
		return tr, nil
	}
	tr, err := newTransport(k, c.CABundle)
	if err != nil {
		return nil, err
	}
	if len(transports.m) >= maxTransports {
		for old, t := range transports.m {
			t.CloseIdleConnections()
			delete(transports.m, old)
		}
	}
	transports.m[k] = tr
	return tr, nil
}

// newTransport returns a transport that verifies servers with the system
// roots and ca (PEM), or not at all when k.insecure is set.
func newTransport(k tlsKey, ca []byte) (*http.Transport, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: k.insecure} // opt-in for test endpoints
	if k.ca != ([sha256.Size]byte{}) {
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(ca) {
			return nil, errors.New("CA bundle contains no PEM certificate")
		}
		cfg.RootCAs = pool
	}
	tr.TLSClientConfig = cfg
	return tr, nil
}
