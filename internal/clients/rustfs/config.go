// Package rustfs is a small client for the RustFS admin tier and
// service-account APIs and the S3 bucket, versioning and lifecycle calls the
// provider needs. It has no Kubernetes imports. The wire contract it
// implements is docs/rustfs-wire.md.
package rustfs

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/version"
)

const (
	// DefaultRegion is the SigV4 scope region used when Config.Region is empty.
	DefaultRegion = "us-east-1"
	adminPrefix   = "/rustfs/admin/v3"
	redacted      = "REDACTED"
)

// A Config says how to reach one RustFS endpoint. Its String, GoString and
// Format methods never show the secret key.
type Config struct {
	Endpoint           string        // base URL http(s)://host[:port]; the admin API lives at <Endpoint>/rustfs/admin/v3
	Region             string        // SigV4 scope region; "" means us-east-1
	AccessKey          string        // access key of the admin identity
	SecretKey          string        // never printed
	CABundle           []byte        // PEM; optional
	InsecureSkipVerify bool          // skip TLS verification (tests only)
	Timeout            time.Duration // per call RustFS answers on its own; 0 means 30s (deadline.go)
	RemoteTimeout      time.Duration // per call that makes RustFS contact the remote tier; 0 means 90s
	UserAgent          string        // "" means "provider-rustfs/" + version.Version
	ReadOnly           bool          // refuse every operation that writes, before sending it (readonly.go)
}

// String returns a redacted description of the configuration.
func (c Config) String() string {
	return fmt.Sprintf("rustfs.Config{Endpoint:%q Region:%q AccessKey:%q SecretKey:%s CABundle:%d bytes InsecureSkipVerify:%t Timeout:%s RemoteTimeout:%s UserAgent:%q}",
		c.Endpoint, c.Region, c.AccessKey, redactedIfSet(c.SecretKey), len(c.CABundle), c.InsecureSkipVerify, c.Timeout, c.RemoteTimeout, c.UserAgent)
}

// GoString returns the same redacted description as String.
func (c Config) GoString() string { return c.String() }

// Format prints the redacted description for every verb.
func (c Config) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

func redactedIfSet(s string) string {
	if s == "" {
		return `""`
	}
	return redacted
}

// A Client talks to one RustFS endpoint: the admin tier API and the S3 API.
// It is safe for concurrent use.
type Client struct {
	base      *url.URL
	region    string
	accessKey string
	secretKey string
	userAgent string
	http      *http.Client
	timeout   time.Duration // see deadline.go
	remote    time.Duration
	signer    *v4.Signer
	now       func() time.Time
	idKey     string          // identityKey of the configuration
	ids       *IdentityCache  // where Identity looks and remembers
	observer  RequestObserver // told of every request sent; nil for none
	readOnly  bool            // refuse writes (readonly.go)
}

// String describes the client without its credentials.
func (c *Client) String() string {
	return fmt.Sprintf("rustfs.Client{Endpoint:%q Region:%q AccessKey:%q}", c.base.String(), c.region, c.accessKey)
}

// Format prints the redacted description for every verb.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// An Option configures a Client.
type Option func(*Client)

// WithIdentityCache makes the client remember its Identity in ic, which
// clients of other configurations may share. Without it each client has a
// cache of its own. Clients made anew for the same configuration find their
// identity in a shared cache without asking RustFS again.
func WithIdentityCache(ic *IdentityCache) Option { return func(c *Client) { c.ids = ic } }

// New validates the configuration and returns a client. It is cheap: clients
// of the same TLS settings share one HTTP transport (transport.go).
func New(c Config, opts ...Option) (*Client, error) {
	base, err := parseEndpoint(c.Endpoint)
	if err != nil {
		return nil, err
	}
	if c.AccessKey == "" || c.SecretKey == "" {
		return nil, errors.New("access key and secret key are required")
	}
	tr, err := transport(c, base.Scheme == "https")
	if err != nil {
		return nil, err
	}
	cl := &Client{
		base: base, region: c.Region, accessKey: c.AccessKey, secretKey: c.SecretKey, userAgent: c.UserAgent,
		http:    &http.Client{Transport: tr, CheckRedirect: noRedirects},
		timeout: orDefault(c.Timeout, DefaultTimeout), remote: orDefault(c.RemoteTimeout, DefaultRemoteTimeout),
		signer: newSigner(), now: time.Now, idKey: identityKey(c), readOnly: c.ReadOnly,
	}
	for _, o := range opts {
		o(cl)
	}
	if cl.ids == nil {
		cl.ids = NewIdentityCache()
	}
	if cl.region == "" {
		cl.region = DefaultRegion
	}
	if cl.userAgent == "" {
		cl.userAgent = "provider-rustfs/" + version.Version
	}
	return cl, nil
}

// parseEndpoint checks an endpoint. Its errors show the endpoint only
// through safeEndpoint, which drops user info, query and fragment, so a
// password in a mistyped endpoint is never echoed.
func parseEndpoint(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(s, "/"))
	if err != nil {
		return nil, errors.Errorf("cannot parse endpoint %q: want http(s)://host[:port]", safeEndpoint(s))
	}
	if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.ContainsAny(s, "@?#") {
		return nil, errors.Errorf("endpoint %q must not have user info, a query or a fragment: "+
			"put the credentials in the Secret and give only http(s)://host[:port]", safeEndpoint(s))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errors.Errorf("endpoint %q must start with http:// or https://", safeEndpoint(s))
	}
	if u.Host == "" {
		return nil, errors.Errorf("endpoint %q has no host", safeEndpoint(s))
	}
	return u, nil
}
