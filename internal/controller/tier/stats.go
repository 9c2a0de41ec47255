package tier

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/tier/tierview"
	"github.com/crossplane-contrib/provider-rustfs/internal/metrics"
)

// A StatsFunc reads the tier statistics of the RustFS a configuration
// reaches.
type StatsFunc func(ctx context.Context, c rustfs.Config) ([]rustfs.TierStat, error)

// A statsView shares one tier-stats answer per RustFS endpoint and
// credentials (tierview.KeyOf, like the tier list) for a refresh interval:
// RustFS reports every tier in one request, so every Tier of a RustFS
// reads the same answer and the provider sends one request per refresh.
// A failed request is shared too, so a RustFS that refuses the call is
// asked once per refresh, not once per Tier. Concurrent readers of a
// stale entry wait for one request. It is safe for concurrent use.
type statsView struct {
	read    StatsFunc
	refresh time.Duration
	now     func() time.Time

	mu      sync.Mutex
	entries map[tierview.Key]*statsEntry
}

// A statsEntry is the shared answer of one key; mu is held while it is
// being read, so readers of a stale entry wait for that one request.
type statsEntry struct {
	mu      sync.Mutex
	stats   []rustfs.TierStat
	err     error
	fetched time.Time
	has     bool
	used    time.Time
}

func newStatsView(read StatsFunc, refresh time.Duration, now func() time.Time) *statsView {
	if refresh <= 0 {
		refresh = tierview.DefaultRefresh
	}
	return &statsView{read: read, refresh: refresh, now: now, entries: map[tierview.Key]*statsEntry{}}
}

// Get returns the statistics of the connection's RustFS, at most one
// refresh interval old.
func (v *statsView) Get(ctx context.Context, c *connection.Connection) ([]rustfs.TierStat, error) {
	e := v.entry(tierview.KeyOf(c))
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.has && v.now().Sub(e.fetched) < v.refresh {
		return e.stats, e.err
	}
	at := v.now()
	stats, err := v.read(ctx, c.Config)
	if ctx.Err() != nil {
		return nil, errors.Wrap(err, errStats)
	}
	e.stats, e.err, e.fetched, e.has = stats, errors.Wrap(err, errStats), at, true
	return e.stats, e.err
}

// entry returns the entry of k, and forgets the entries nobody asked for
// during three refresh intervals.
func (v *statsView) entry(k tierview.Key) *statsEntry {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	for key, e := range v.entries {
		if key != k && now.Sub(e.used) >= 3*v.refresh {
			delete(v.entries, key)
		}
	}
	e, ok := v.entries[k]
	if !ok {
		e = &statsEntry{}
		v.entries[k] = e
	}
	e.used = now
	return e
}

const errStats = "cannot read tier statistics"

// readStats reads tier statistics with a client for the configuration.
func readStats(newClient func(rustfs.Config) (rustfs.TierAPI, error)) StatsFunc {
	return func(ctx context.Context, c rustfs.Config) ([]rustfs.TierStat, error) {
		api, err := newClient(c)
		if err != nil {
			return nil, errors.Wrap(err, errNewClient)
		}
		return api.TierStats(ctx)
	}
}

// stats sets the Tier's statistics from the shared answer (none without a
// statsView). A failure
// keeps the statistics last recorded: they are informative, and the
// reconcile goes on.
func (e *external) stats(ctx context.Context, cr *v1alpha1.Tier) {
	if e.statsView == nil {
		return
	}
	all, err := e.statsView.Get(ctx, e.conn)
	if err != nil {
		return
	}
	s := tierStats(all, cr.Spec.ForProvider.Name)
	s.ObservedAt = &metav1.Time{Time: e.now()}
	if old := cr.Status.AtProvider.Stats; old != nil && sameStats(*old, s) {
		s.ObservedAt = old.ObservedAt // no status write for an unchanged answer
	}
	cr.Status.AtProvider.Stats = &s
	metrics.SetTierStats(cr.GetNamespace(), cr.GetName(), s.Objects, s.Bytes, s.Versions)
}

// tierStats returns the statistics of the tier name among all (zeros for a
// tier RustFS does not list: no transitions in the last 24 hours).
func tierStats(all []rustfs.TierStat, name string) v1alpha1.TierStats {
	var s v1alpha1.TierStats
	for _, t := range all {
		if t.Name != name {
			continue
		}
		s = v1alpha1.TierStats{Objects: clamp(t.NumObjects), Bytes: clamp(t.TotalSize), Versions: clamp(t.NumVersions),
			InventoryStatus: t.InventoryStatus}
		if i := t.Inventory; i != nil {
			s.Inventory = &v1alpha1.TierInventory{Objects: clamp(i.NumObjects), Bytes: clamp(i.TotalSize), Versions: clamp(i.NumVersions)}
		}
	}
	return s
}

// sameStats reports whether two statistics are alike but for when they
// were read.
func sameStats(a, b v1alpha1.TierStats) bool {
	a.ObservedAt, b.ObservedAt = nil, nil
	ai, bi := a.Inventory, b.Inventory
	a.Inventory, b.Inventory = nil, nil
	return a == b && (ai == nil) == (bi == nil) && (ai == nil || *ai == *bi)
}

// clamp converts a RustFS counter to the int64 of the API.
func clamp(n uint64) int64 {
	if n > uint64(1<<63-1) {
		return 1<<63 - 1
	}
	return int64(n)
}
