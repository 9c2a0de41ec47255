package manager

import (
	"context"
	"reflect"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// staleFor is how long after a write a read of the object's previous
// version is taken as the cache lagging behind it. A watch brings the new
// version within milliseconds; a record older than this is forgotten.
const staleFor = 30 * time.Second

// NewClient is the manager's client: controller-runtime's, cached, that
// reads its own writes (OwnWrites).
func NewClient(cfg *rest.Config, o client.Options) (client.Client, error) {
	cached, err := client.New(cfg, o)
	if err != nil {
		return nil, err
	}
	live, err := client.New(cfg, client.Options{HTTPClient: o.HTTPClient, Scheme: o.Scheme, Mapper: o.Mapper})
	if err != nil {
		return nil, errors.Wrap(err, "cannot create the uncached client")
	}
	return OwnWrites(cached, live, time.Now), nil
}

// OwnWrites returns c, except that a Get that finds in c's cache the
// version an object had before c last updated or patched it reads the
// object from live instead. Without it a pass queued while another wrote
// (a retry's backoff, a poll) reads the version the write replaced and can
// act on it again: write RustFS twice, or conflict on status.
func OwnWrites(c client.Client, live client.Reader, now func() time.Time) client.Client {
	return &ownWrites{Client: c, live: live, log: &writeLog{now: now, before: map[writeKey]written{}}}
}

type ownWrites struct {
	client.Client
	live client.Reader
	log  *writeLog
}

func (c *ownWrites) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if !c.log.replaced(writeKey{reflect.TypeOf(obj), key}, obj, err) {
		return err
	}
	return c.live.Get(ctx, key, obj, opts...)
}

func (c *ownWrites) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return c.log.write(obj, func() error { return c.Client.Update(ctx, obj, opts...) })
}

func (c *ownWrites) Patch(ctx context.Context, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
	return c.log.write(obj, func() error { return c.Client.Patch(ctx, obj, p, opts...) })
}

func (c *ownWrites) Status() client.SubResourceWriter {
	return ownStatus{SubResourceWriter: c.Client.Status(), log: c.log}
}

type ownStatus struct {
	client.SubResourceWriter
	log *writeLog
}

func (s ownStatus) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return s.log.write(obj, func() error { return s.SubResourceWriter.Update(ctx, obj, opts...) })
}

func (s ownStatus) Patch(ctx context.Context, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
	return s.log.write(obj, func() error { return s.SubResourceWriter.Patch(ctx, obj, p, opts...) })
}

// A writeKey names one object of one Go type.
type writeKey struct {
	t   reflect.Type
	key client.ObjectKey
}

// written is the resourceVersion an object had before a write, and when.
type written struct {
	version string
	at      time.Time
}

// A writeLog holds, per object written, the version the write replaced,
// until a read finds another version or staleFor passes.
type writeLog struct {
	now       func() time.Time
	mu        sync.Mutex
	before    map[writeKey]written
	nextSweep time.Time
}

// write runs fn, a write of obj, and records the version it replaced.
func (l *writeLog) write(obj client.Object, fn func() error) error {
	version := obj.GetResourceVersion()
	if err := fn(); err != nil || version == "" || obj.GetResourceVersion() == version {
		return err
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.before[writeKey{reflect.TypeOf(obj), client.ObjectKeyFromObject(obj)}] = written{version: version, at: now}
	if now.After(l.nextSweep) {
		for k, w := range l.before {
			if now.Sub(w.at) > staleFor {
				delete(l.before, k)
			}
		}
		l.nextSweep = now.Add(staleFor)
	}
	return nil
}

// replaced reports whether a read of k that returned obj and err found the
// version a recent write replaced. Any other answer ends k's record.
func (l *writeLog) replaced(k writeKey, obj client.Object, err error) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.before[k]
	if !ok {
		return false
	}
	if err == nil && obj.GetResourceVersion() == w.version && l.now().Sub(w.at) <= staleFor {
		return true
	}
	delete(l.before, k)
	return false
}
