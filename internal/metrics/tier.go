package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// The tier gauges are served by one collector from a map of plain values,
// built only when scraped: four GaugeVecs held a hashed, labelled series
// object per Tier and gauge, about 1.5 MB of live heap at 1,000 Tiers
// (docs/performance.md, "Allocations while polling (v0.3)").
var (
	tierHealthy = prometheus.NewDesc("rustfs_tier_remote_healthy",
		"1 when RustFS's last verify of the Tier's remote succeeded, 0 when it failed.", []string{"namespace", "name"}, nil)
	tierObjects = prometheus.NewDesc("rustfs_tier_objects",
		"Objects RustFS reports transitioned to the Tier.", []string{"namespace", "name"}, nil)
	tierBytes = prometheus.NewDesc("rustfs_tier_bytes",
		"Bytes RustFS reports transitioned to the Tier.", []string{"namespace", "name"}, nil)
	tierVersions = prometheus.NewDesc("rustfs_tier_versions",
		"Object versions RustFS reports transitioned to the Tier.", []string{"namespace", "name"}, nil)

	tiers = &tierGauges{values: map[tierKey]tierValues{}}
)

// A tierKey identifies one Tier managed resource.
type tierKey struct{ namespace, name string }

// tierValues are what was last set for one Tier; a gauge not yet set is
// not served.
type tierValues struct {
	hasHealth, hasStats      bool
	healthy                  float64
	objects, bytes, versions float64
}

// tierGauges collects the tier gauges.
type tierGauges struct {
	mu     sync.Mutex
	values map[tierKey]tierValues
}

// SetTierHealth records the RemoteHealthy state of one Tier (namespace, name).
func SetTierHealth(namespace, name string, healthy bool) {
	tiers.set(namespace, name, func(v *tierValues) {
		v.hasHealth, v.healthy = true, 0
		if healthy {
			v.healthy = 1
		}
	})
}

// SetTierStats records the statistics of one Tier.
func SetTierStats(namespace, name string, objects, bytes, versions int64) {
	tiers.set(namespace, name, func(v *tierValues) {
		v.hasStats = true
		v.objects, v.bytes, v.versions = float64(objects), float64(bytes), float64(versions)
	})
}

// ForgetTier drops a deleted Tier's series.
func ForgetTier(namespace, name string) {
	tiers.mu.Lock()
	defer tiers.mu.Unlock()
	delete(tiers.values, tierKey{namespace, name})
}

func (g *tierGauges) set(namespace, name string, fn func(*tierValues)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	k := tierKey{namespace, name}
	v := g.values[k]
	fn(&v)
	g.values[k] = v
}

// Describe sends the four gauges' descriptions.
func (g *tierGauges) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{tierHealthy, tierObjects, tierBytes, tierVersions} {
		ch <- d
	}
}

// Collect sends each Tier's gauges that were set.
func (g *tierGauges) Collect(ch chan<- prometheus.Metric) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for k, v := range g.values {
		if v.hasHealth {
			ch <- prometheus.MustNewConstMetric(tierHealthy, prometheus.GaugeValue, v.healthy, k.namespace, k.name)
		}
		if v.hasStats {
			ch <- prometheus.MustNewConstMetric(tierObjects, prometheus.GaugeValue, v.objects, k.namespace, k.name)
			ch <- prometheus.MustNewConstMetric(tierBytes, prometheus.GaugeValue, v.bytes, k.namespace, k.name)
			ch <- prometheus.MustNewConstMetric(tierVersions, prometheus.GaugeValue, v.versions, k.namespace, k.name)
		}
	}
}
