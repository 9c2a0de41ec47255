package rustfstest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Test host names. RustFS 1.0.x GA refuses tier endpoints on localhost,
// loopback and private addresses for every tier type, but never resolves a
// host name (docs/rustfs-wire.md §13.12, §4.1). So that a GA emulator can
// still use another emulator in this process as a tier's remote, every
// Server gets a host name under HostDomain. The name resolves nowhere else:
// only an emulator's own outbound dialer maps it, and any "<bucket>.<name>"
// (virtual-host addressing), to the server's address. This keeps the GA
// outbound-URL guard exactly as strict as RustFS's release builds, instead
// of an allowance for loopback that only RustFS debug builds have.
const HostDomain = "rustfs.test"

// A registered host is a Server under its test host name.
type registered struct {
	addr string
	emu  *Emulator
}

// hosts maps the registered host names to their servers.
var hosts = struct {
	sync.Mutex
	by   map[string]registered
	next int
}{by: map[string]registered{}}

// registerHost gives the server at addr a new host name under HostDomain.
func registerHost(addr string, e *Emulator) string {
	hosts.Lock()
	defer hosts.Unlock()
	hosts.next++
	name := fmt.Sprintf("emulator-%d.%s", hosts.next, HostDomain)
	hosts.by[name] = registered{addr: addr, emu: e}
	return name
}

func unregisterHost(name string) {
	hosts.Lock()
	defer hosts.Unlock()
	delete(hosts.by, name)
}

// lookupRegistered returns the server of a registered host name, or of the
// name a virtual-host style "<bucket>.<name>" is under.
func lookupRegistered(host string) (registered, bool) {
	hosts.Lock()
	defer hosts.Unlock()
	for h := host; h != ""; {
		if r, ok := hosts.by[h]; ok {
			return r, true
		}
		_, h, _ = strings.Cut(h, ".")
	}
	return registered{}, false
}

func lookupHost(host string) (string, bool) {
	r, ok := lookupRegistered(host)
	return r.addr, ok
}

// trusted holds the certificates of the TLS emulators of this process, which
// every emulator's outbound client trusts (and no other).
var trusted = struct {
	sync.Mutex
	certs [][]byte
}{}

func trustCertificate(c *x509.Certificate) {
	trusted.Lock()
	defer trusted.Unlock()
	trusted.certs = append(trusted.certs, c.Raw)
}

// verifyTrusted accepts a server whose leaf certificate is one of a TLS
// emulator's. The test certificate names no rustfs.test host, so the
// certificate itself, not the name, is what is checked.
func verifyTrusted(raw [][]byte, _ [][]*x509.Certificate) error {
	trusted.Lock()
	defer trusted.Unlock()
	for _, c := range trusted.certs {
		if len(raw) > 0 && bytes.Equal(raw[0], c) {
			return nil
		}
	}
	return errors.New("certificate is not a rustfstest emulator's")
}

// remoteTransport dials tier endpoints: WithRemoteAlias first (host:port,
// then host), then the registered test host names; anything else is dialled
// as is.
func (e *Emulator) remoteTransport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 5 * time.Second}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		if a, ok := e.aliases[addr]; ok {
			addr = a
		} else if a, ok := e.aliases[host]; ok {
			addr = a
		} else if a, ok := lookupHost(host); ok {
			addr = a
		}
		return d.DialContext(ctx, network, addr)
	}
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true, VerifyPeerCertificate: verifyTrusted} // verifyTrusted checks the certificate
	return tr
}

// Host returns the server's test host name (see HostDomain).
func (s *Server) Host() string { return s.host }

// TierURL returns the base URL of the server under its test host name, for
// example http://emulator-3.rustfs.test:41234: the endpoint another emulator
// uses to reach this one as a tier's remote. Only emulators resolve it.
func (s *Server) TierURL() string {
	_, port, _ := net.SplitHostPort(s.Addr())
	scheme := "http"
	if s.tls {
		scheme = "https"
	}
	return scheme + "://" + s.host + ":" + port
}

// vhostBucket returns the bucket of a virtual-host style request, or "": the
// Host is "<bucket>.<domain>" for the server's test host name or a domain of
// WithVirtualHostDomain.
func (e *Emulator) vhostBucket(hostport string) string {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	for _, d := range e.vhosts {
		if b, ok := strings.CutSuffix(host, "."+d); ok && b != "" {
			return b
		}
	}
	return ""
}
