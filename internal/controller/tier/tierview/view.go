// Package tierview shares one RustFS tier list per endpoint and credentials
// among every Tier reconcile.
//
// RustFS lists all of its tiers in one admin request, so a provider that
// manages a thousand Tiers on one endpoint needs one list per poll interval,
// not a thousand. A View keeps the last list of each endpoint (keyed by the
// normalised endpoint and a digest of the credentials) for a refresh
// interval; concurrent readers of a stale entry wait for a single request
// (single flight). The provider's own writes invalidate the entry, so the
// next reader sees them. When a refreshed list shows that a tier changed or
// disappeared, the View reports it, so that the Tiers that name it are
// reconciled at once instead of at their next poll. Entries nobody asked
// for during the idle period are forgotten.
package tierview

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"sync"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// Defaults used when New is given no option.
const (
	// DefaultRefresh is the refresh interval used when New is given a
	// non-positive one.
	DefaultRefresh = time.Minute
	// DefaultTimeout bounds one list request.
	DefaultTimeout = 30 * time.Second
	// idleRefreshes is how many refresh intervals an entry nobody asks for
	// is kept.
	idleRefreshes = 3
)

// A Key identifies one shared list: a normalised endpoint and whom it is
// listed as. Identity is a digest of everything that authenticates or
// verifies the request (both keys, the region, the TLS settings), never a
// credential: a list read with one secret key must never answer a reader
// with another, for a successful read is what proves a resource's access
// to RustFS (docs/multi-tenancy.md).
type Key struct {
	Endpoint string
	Identity string
}

// KeyOf returns the key of the list a connection reads.
func KeyOf(c *connection.Connection) Key {
	h := sha256.New()
	cfg := c.Config
	for _, s := range []string{cfg.Endpoint, cfg.Region, cfg.AccessKey, cfg.SecretKey, string(cfg.CABundle), strconv.FormatBool(cfg.InsecureSkipVerify)} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return Key{Endpoint: c.Endpoint, Identity: hex.EncodeToString(h.Sum(nil)[:16])}
}

// A Change is a tier that a refreshed list shows with other settings or
// another access key than the previous list, or no longer shows.
type Change struct {
	// Endpoint is the normalised endpoint of the RustFS that lists the tier.
	Endpoint string
	// Tier is the tier's name.
	Tier string
}

// A ListFunc lists the tiers of the RustFS a configuration reaches.
type ListFunc func(ctx context.Context, c rustfs.Config) ([]rustfs.Tier, error)

// A View shares tier lists. It is safe for concurrent use.
type View struct {
	list    ListFunc
	refresh time.Duration
	idle    time.Duration
	timeout time.Duration
	now     func() time.Time
	notify  func([]Change)

	mu      sync.Mutex
	entries map[Key]*entry
}

// An Option configures a View.
type Option func(*View)

// WithClock sets the clock (default time.Now).
func WithClock(now func() time.Time) Option { return func(v *View) { v.now = now } }

// WithIdle sets how long an entry nobody asks for is kept (default three
// refresh intervals).
func WithIdle(d time.Duration) Option { return func(v *View) { v.idle = d } }

// WithTimeout bounds each list request (default DefaultTimeout).
func WithTimeout(d time.Duration) Option { return func(v *View) { v.timeout = d } }

// WithNotify sets the function told about the changes a refreshed list
// shows. It is called without the View's lock held, from the goroutine that
// made the request, before the readers waiting for that request are
// answered; it must not block.
func WithNotify(fn func([]Change)) Option { return func(v *View) { v.notify = fn } }

// New returns a View that lists tiers with list and shares each list for
// refresh (DefaultRefresh if refresh is not positive).
func New(list ListFunc, refresh time.Duration, opts ...Option) *View {
	if refresh <= 0 {
		refresh = DefaultRefresh
	}
	v := &View{
		list: list, refresh: refresh, idle: idleRefreshes * refresh, timeout: DefaultTimeout,
		now: time.Now, notify: func([]Change) {}, entries: map[Key]*entry{},
	}
	for _, o := range opts {
		o(v)
	}
	return v
}

// List returns the tiers the connection's RustFS lists, at most one refresh
// interval old and never older than the provider's last write through
// Invalidate. The returned slice is shared: callers must not modify it.
func (v *View) List(ctx context.Context, c *connection.Connection) ([]rustfs.Tier, error) {
	tiers, f := v.join(ctx, KeyOf(c), c.Config)
	if f == nil {
		return tiers, nil
	}
	select {
	case <-f.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return f.tiers, f.err
}

// Invalidate makes the next List of the connection's endpoint and
// credentials request a new list. The provider calls it after each of its
// own writes. A request already in flight still answers the readers that
// joined it before the write.
func (v *View) Invalidate(c *connection.Connection) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if e, ok := v.entries[KeyOf(c)]; ok {
		e.gen++
	}
}

// Len returns how many endpoints and credentials the View remembers.
func (v *View) Len() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.entries)
}
