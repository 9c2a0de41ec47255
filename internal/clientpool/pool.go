// Package clientpool shares RustFS clients among the reconciles that use
// the same configuration.
//
// rustfs.New gives every client an HTTP transport of its own. A controller
// that makes a client per reconcile therefore opens a TCP connection per
// reconcile and leaves it idle in a transport nobody uses again, where it
// holds two goroutines and its buffers until the transport's idle timeout
// (90 seconds). With thousands of resources that is thousands of idle
// connections. A pooled constructor returns the same client, and so the
// same connection pool, for the same configuration, and forgets clients
// that nobody asked for during an idle period.
package clientpool

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sync"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// A Pool keeps clients of type T by configuration. It is safe for
// concurrent use.
type Pool[T any] struct {
	newClient func(rustfs.Config) (T, error)
	idle      time.Duration
	now       func() time.Time

	mu      sync.Mutex
	clients map[string]*entry[T]
	swept   time.Time
}

type entry[T any] struct {
	client T
	used   time.Time
}

// An Option configures a Pool.
type Option func(*options)

type options struct{ now func() time.Time }

// WithClock sets the clock (default time.Now).
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// DefaultIdle is the idle period used when New is given a non-positive one.
const DefaultIdle = 10 * time.Minute

// New returns a Pool that makes clients with newClient and forgets those
// nobody asked for during idle (DefaultIdle if idle is not positive).
func New[T any](idle time.Duration, newClient func(rustfs.Config) (T, error), opts ...Option) *Pool[T] {
	if idle <= 0 {
		idle = DefaultIdle
	}
	o := options{now: time.Now}
	for _, f := range opts {
		f(&o)
	}
	return &Pool[T]{newClient: newClient, idle: idle, now: o.now, clients: map[string]*entry[T]{}}
}

// Shared returns a constructor with the signature of newClient that
// shares clients through a new Pool.
func Shared[T any](idle time.Duration, newClient func(rustfs.Config) (T, error)) func(rustfs.Config) (T, error) {
	return New(idle, newClient).Get
}

// Get returns the client for c, making it if the pool has none. A failure
// to make one is returned and not remembered.
func (p *Pool[T]) Get(c rustfs.Config) (T, error) {
	k := key(c)
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.sweep(now)
	if e, ok := p.clients[k]; ok {
		e.used = now
		return e.client, nil
	}
	cl, err := p.newClient(c)
	if err != nil {
		var zero T
		return zero, err
	}
	p.clients[k] = &entry[T]{client: cl, used: now}
	return cl, nil
}

// Len returns how many clients the pool keeps.
func (p *Pool[T]) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.clients)
}

// sweep forgets, at most once per idle period, the clients nobody asked
// for during it; p.mu must be held.
func (p *Pool[T]) sweep(now time.Time) {
	if now.Sub(p.swept) < p.idle {
		return
	}
	p.swept = now
	for k, e := range p.clients {
		if now.Sub(e.used) >= p.idle {
			delete(p.clients, k)
		}
	}
}

// key digests every field of c, so that clients of different endpoints,
// credentials or TLS settings are never shared. It holds no credential.
func key(c rustfs.Config) string {
	h := sha256.New()
	for _, s := range []string{c.Endpoint, c.Region, c.AccessKey, c.SecretKey, string(c.CABundle), c.UserAgent} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	var tail [17]byte
	binary.BigEndian.PutUint64(tail[:8], uint64(c.Timeout))
	binary.BigEndian.PutUint64(tail[8:16], uint64(c.RemoteTimeout))
	if c.InsecureSkipVerify {
		tail[16] = 1
	}
	h.Write(tail[:])
	return hex.EncodeToString(h.Sum(nil))
}
