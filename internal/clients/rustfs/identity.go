package rustfs

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// An Identity names the RustFS deployment a client reaches
// (docs/rustfs-wire.md §15.5): "deployment:<id>" when admin info reports a
// deployment ID, "endpoint:<normalised endpoint>" when info is refused or
// reports none. Two clients reach the same RustFS when their identities are
// equal. The prefixes keep an ID from ever equalling an endpoint.
type Identity string

const (
	deploymentPrefix = "deployment:"
	endpointPrefix   = "endpoint:"
)

// IsDeployment reports whether the identity is a deployment ID rather than
// the endpoint fallback.
func (i Identity) IsDeployment() bool { return strings.HasPrefix(string(i), deploymentPrefix) }

// An IdentityAPI tells which RustFS deployment a client reaches.
type IdentityAPI interface {
	Identity(ctx context.Context) (Identity, error)
}

var _ IdentityAPI = &Client{}

// Identity returns the deployment the client reaches, through the client's
// IdentityCache (see WithIdentityCache): the deployment ID when admin info
// answers, the normalised endpoint when info is refused (IsInfoRefused) or
// answers without an ID, and an error otherwise, so that a caller retries
// rather than mis-identifies.
func (c *Client) Identity(ctx context.Context) (Identity, error) {
	return c.ids.lookup(ctx, c)
}

// NormalizeEndpoint returns the canonical form of an http(s) endpoint
// (docs/rustfs-wire.md §15.5): scheme and host lower-cased, one trailing dot
// of the host dropped, IP addresses in canonical form, the port explicit
// (80 for http, 443 for https) and without leading zeros, and no path or
// trailing slash. It rejects what New rejects, and ports outside 1-65535.
func NormalizeEndpoint(raw string) (string, error) {
	u, err := parseEndpoint(raw)
	if err != nil {
		return "", err
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return "", errors.Errorf("endpoint %q has no host", raw)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.Unmap().String()
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return "", errors.Errorf("endpoint %q has an invalid port", raw)
	}
	hostPort := net.JoinHostPort(host, strconv.Itoa(n))
	return u.Scheme + "://" + strings.Replace(hostPort, "%", "%25", 1), nil
}

// Defaults of an IdentityCache.
const (
	// DefaultRefusalTTL is how long a refused or ID-less info answer is
	// believed before info is asked again.
	DefaultRefusalTTL = 5 * time.Minute
	// DefaultIdentityIdle is how long an entry nobody asks for is kept.
	DefaultIdentityIdle = time.Hour
)

// An IdentityCache remembers identities per client configuration (endpoint,
// region, keys and TLS settings), so that lookups cost one info request per
// configuration rather than one per reconcile, even when clients are
// re-created. A deployment ID is kept until its entry goes unused for the
// idle period; a refusal for the refusal TTL; errors are not kept. It is safe
// for concurrent use; concurrent lookups of one configuration make one
// request.
type IdentityCache struct {
	refusalTTL time.Duration
	idle       time.Duration
	now        func() time.Time

	mu      sync.Mutex
	entries map[string]*identityEntry
	swept   time.Time
}

type identityEntry struct {
	mu      sync.Mutex // held during a lookup, so one request serves concurrent callers
	id      Identity
	expires time.Time // zero for a deployment ID
	used    time.Time // guarded by IdentityCache.mu
}

// An IdentityOption configures an IdentityCache.
type IdentityOption func(*IdentityCache)

// WithIdentityClock sets the cache's clock (default time.Now).
func WithIdentityClock(now func() time.Time) IdentityOption {
	return func(ic *IdentityCache) { ic.now = now }
}

// WithRefusalTTL sets how long a refusal is kept (default DefaultRefusalTTL).
func WithRefusalTTL(d time.Duration) IdentityOption {
	return func(ic *IdentityCache) { ic.refusalTTL = d }
}

// WithIdentityIdle sets how long an unused entry is kept (default
// DefaultIdentityIdle).
func WithIdentityIdle(d time.Duration) IdentityOption {
	return func(ic *IdentityCache) { ic.idle = d }
}

// NewIdentityCache returns an empty cache.
func NewIdentityCache(opts ...IdentityOption) *IdentityCache {
	ic := &IdentityCache{refusalTTL: DefaultRefusalTTL, idle: DefaultIdentityIdle, now: time.Now,
		entries: map[string]*identityEntry{}}
	for _, o := range opts {
		o(ic)
	}
	return ic
}

// lookup returns c's identity from the cache, asking admin info when the
// cache has none or the refusal it has expired.
func (ic *IdentityCache) lookup(ctx context.Context, c *Client) (Identity, error) {
	e := ic.entry(c.idKey)
	e.mu.Lock()
	defer e.mu.Unlock()
	now := ic.now()
	if e.id != "" && (e.expires.IsZero() || now.Before(e.expires)) {
		return e.id, nil
	}
	id, err := c.DeploymentID(ctx)
	if err != nil && !IsInfoRefused(err) {
		return "", errors.Wrap(err, "cannot identify the RustFS deployment")
	}
	if id != "" {
		e.id, e.expires = Identity(deploymentPrefix+id), time.Time{}
		return e.id, nil
	}
	ep, err := NormalizeEndpoint(c.base.String())
	if err != nil {
		return "", errors.Wrap(err, "cannot identify the RustFS deployment")
	}
	e.id, e.expires = Identity(endpointPrefix+ep), now.Add(ic.refusalTTL)
	return e.id, nil
}

// entry returns the entry for key, making it if needed, after forgetting
// (at most once per idle period) the entries nobody asked for during it.
func (ic *IdentityCache) entry(key string) *identityEntry {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	now := ic.now()
	if now.Sub(ic.swept) >= ic.idle {
		ic.swept = now
		for k, e := range ic.entries {
			if now.Sub(e.used) >= ic.idle {
				delete(ic.entries, k)
			}
		}
	}
	e, ok := ic.entries[key]
	if !ok {
		e = &identityEntry{}
		ic.entries[key] = e
	}
	e.used = now
	return e
}

// identityKey digests what decides a client's identity: the endpoint, the
// region, the keys and the TLS settings. It holds no credential.
func identityKey(c Config) string {
	h := sha256.New()
	for _, s := range []string{c.Endpoint, c.Region, c.AccessKey, c.SecretKey, string(c.CABundle)} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	if c.InsecureSkipVerify {
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil))
}
