package tierview

import (
	"context"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// An entry is the shared list of one Key.
type entry struct {
	tiers   []rustfs.Tier // the last list; nil before the first
	fetched time.Time     // when the request of the last list started
	listed  uint64        // gen at the start of the request of the last list
	has     bool          // a list was stored
	gen     uint64        // bumped by Invalidate
	used    time.Time     // when List last asked for the entry
	flight  *flight       // the request in progress for gen, if any
}

// A flight is one list request that readers wait for.
type flight struct {
	gen     uint64
	started time.Time
	done    chan struct{}
	tiers   []rustfs.Tier
	err     error
}

// fresh reports whether the stored list may answer a reader at now: it was
// requested after the provider's last write and within the refresh interval.
func (e *entry) fresh(now time.Time, refresh time.Duration) bool {
	return e.has && e.listed == e.gen && now.Sub(e.fetched) < refresh
}

// join returns the stored list if it is fresh, else the flight to wait for:
// the one in progress for the entry's generation, or a new one it starts.
func (v *View) join(ctx context.Context, k Key, c rustfs.Config) ([]rustfs.Tier, *flight) {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	e, ok := v.entries[k]
	if !ok {
		e = &entry{}
		v.entries[k] = e
	}
	e.used = now
	if e.fresh(now, v.refresh) {
		return e.tiers, nil
	}
	if e.flight != nil && e.flight.gen == e.gen {
		return nil, e.flight
	}
	f := &flight{gen: e.gen, started: now, done: make(chan struct{})}
	e.flight = f
	// The request outlives the reader that started it, so that the other
	// readers are not failed by its cancellation; it is bounded by the
	// View's timeout instead.
	go v.fetch(context.WithoutCancel(ctx), k, e, f, c)
	return nil, f
}

// fetch makes the request of f, stores the list if it is newer than the
// stored one, reports what changed, and then answers the readers of f.
func (v *View) fetch(ctx context.Context, k Key, e *entry, f *flight, c rustfs.Config) {
	ctx, cancel := context.WithTimeout(ctx, v.timeout)
	defer cancel()
	tiers, err := v.list(ctx, c)

	v.mu.Lock()
	f.tiers, f.err = tiers, err
	var changes []Change
	if err == nil && v.entries[k] == e && (!e.has || f.gen >= e.listed) {
		if e.has {
			changes = Diff(k.Endpoint, e.tiers, tiers)
		}
		e.tiers, e.fetched, e.listed, e.has = tiers, f.started, f.gen, true
	}
	if e.flight == f {
		e.flight = nil
	}
	v.mu.Unlock()

	if len(changes) > 0 {
		v.notify(changes)
	}
	close(f.done)
}

// Diff returns the tiers of before that after shows with other settings or
// another access key, or does not show. Tiers that only after shows are not
// changes: the provider's own adds make them, and no Tier waits for a tier
// to appear.
func Diff(endpoint string, before, after []rustfs.Tier) []Change {
	now := make(map[string]int, len(after))
	for i := range after {
		now[after[i].Name] = i
	}
	var out []Change
	for _, t := range before {
		if i, ok := now[t.Name]; ok && same(after[i], t) {
			continue
		}
		out = append(out, Change{Endpoint: endpoint, Tier: t.Name})
	}
	return out
}

// same reports whether two listings of a tier are alike. The secret key is
// not compared: RustFS never lists it.
func same(a, b rustfs.Tier) bool {
	return a.Type == b.Type && a.Endpoint == b.Endpoint && a.AccessKey == b.AccessKey && a.Bucket == b.Bucket &&
		a.Prefix == b.Prefix && a.Region == b.Region && a.StorageClass == b.StorageClass
}

// Start forgets, every refresh interval until ctx ends, the entries nobody
// asked for during the idle period. It makes the View a manager Runnable.
func (v *View) Start(ctx context.Context) error {
	t := time.NewTicker(v.refresh)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			v.Sweep()
		}
	}
}

// Sweep forgets the entries nobody asked for during the idle period and
// that have no request in flight.
func (v *View) Sweep() {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	for k, e := range v.entries {
		if e.flight == nil && now.Sub(e.used) >= v.idle {
			delete(v.entries, k)
		}
	}
}
