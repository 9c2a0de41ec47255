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
// answers, or when it is refused (IsInfoRefused) or answers without an ID
// but the cache learned an ID at the same normalised endpoint; else the
// normalised endpoint. Any other failure is an error, so that a caller
// retries rather than mis-identifies.
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

// EndpointIdentity returns the identity of a RustFS reached at endpoint
// that refuses the admin info call: the normalised endpoint. A caller that
// kept records under it recognises them after the same RustFS has been
// identified by its deployment ID.
func EndpointIdentity(endpoint string) (Identity, error) {
	ep, err := NormalizeEndpoint(endpoint)
	if err != nil {
		return "", err
	}
	return Identity(endpointPrefix + ep), nil
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
// idle period; a refusal for the refusal TTL; errors are not kept. A
// configuration refused at a normalised endpoint where another configuration
// of the same cache was told a deployment ID gets that ID, so share one cache
// among all controllers. It is safe for concurrent use; concurrent lookups of
// one configuration make one request.
type IdentityCache struct {
	refusalTTL time.Duration
	idle       time.Duration
	now        func() time.Time

	mu      sync.Mutex
	entries map[string]*identityEntry
	learned map[string]*learnedID // by normalised endpoint
	swept   time.Time
}

type identityEntry struct {
	mu       sync.Mutex // held during a lookup, so one request serves concurrent callers
	id       Identity
	endpoint string    // normalised
	expires  time.Time // zero for a deployment ID
	used     time.Time // guarded by IdentityCache.mu
}

// A learnedID is the deployment ID some configuration was told at an
// endpoint; guarded by IdentityCache.mu.
type learnedID struct {
	id   string
	used time.Time
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
		entries: map[string]*identityEntry{}, learned: map[string]*learnedID{}}
	for _, o := range opts {
		o(ic)
	}
	return ic
}

// lookup returns c's identity from the cache, asking admin info when the
// cache has none or the refusal it has expired. A configuration refused at
// an endpoint where another configuration of the cache was told a
// deployment ID shares that ID: one endpoint is one server.
func (ic *IdentityCache) lookup(ctx context.Context, c *Client) (Identity, error) {
	e := ic.entry(c.idKey)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.id == "" || !e.expires.IsZero() && !ic.now().Before(e.expires) {
		if err := ic.refresh(ctx, c, e); err != nil {
			return "", errors.Wrap(err, "cannot identify the RustFS deployment")
		}
	}
	if e.id.IsDeployment() {
		ic.learn(e.endpoint, strings.TrimPrefix(string(e.id), deploymentPrefix))
		return e.id, nil
	}
	if id := ic.learnedAt(e.endpoint); id != "" {
		return Identity(deploymentPrefix + id), nil
	}
	return e.id, nil
}

// refresh asks admin info and records the answer in e: the deployment ID
// for good, a refusal or a missing ID until the refusal TTL passes.
func (ic *IdentityCache) refresh(ctx context.Context, c *Client, e *identityEntry) error {
	ep, err := NormalizeEndpoint(c.base.String())
	if err != nil {
		return err
	}
	id, err := c.DeploymentID(ctx)
	if err != nil && !IsInfoRefused(err) {
		return err
	}
	e.endpoint = ep
	if id == "" {
		e.id, e.expires = Identity(endpointPrefix+ep), ic.now().Add(ic.refusalTTL)
		return nil
	}
	e.id, e.expires = Identity(deploymentPrefix+id), time.Time{}
	return nil
}

// learn records that endpoint reported the deployment ID id.
func (ic *IdentityCache) learn(endpoint, id string) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	if l, ok := ic.learned[endpoint]; ok {
		l.id, l.used = id, ic.now()
		return
	}
	ic.learned[endpoint] = &learnedID{id: id, used: ic.now()}
}

// learnedAt returns the deployment ID last reported at endpoint, or "".
func (ic *IdentityCache) learnedAt(endpoint string) string {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	l, ok := ic.learned[endpoint]
	if !ok {
		return ""
	}
	l.used = ic.now()
	return l.id
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
		for k, l := range ic.learned {
			if now.Sub(l.used) >= ic.idle {
				delete(ic.learned, k)
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
