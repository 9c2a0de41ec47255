package metrics

import "github.com/prometheus/client_golang/prometheus"

// tierLabels identify one Tier managed resource.
var tierLabels = []string{"namespace", "name"}

var (
	tierHealthy = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "rustfs_tier_remote_healthy",
		Help: "1 when RustFS's last verify of the Tier's remote succeeded, 0 when it failed.",
	}, tierLabels)
	tierObjects = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "rustfs_tier_objects",
		Help: "Objects RustFS reports transitioned to the Tier.",
	}, tierLabels)
	tierBytes = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "rustfs_tier_bytes",
		Help: "Bytes RustFS reports transitioned to the Tier.",
	}, tierLabels)
	tierVersions = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "rustfs_tier_versions",
		Help: "Object versions RustFS reports transitioned to the Tier.",
	}, tierLabels)
)

// SetTierHealth records the RemoteHealthy state of one Tier (namespace, name).
func SetTierHealth(namespace, name string, healthy bool) {
	v := 0.0
	if healthy {
		v = 1
	}
	tierHealthy.WithLabelValues(namespace, name).Set(v)
}

// SetTierStats records the statistics of one Tier.
func SetTierStats(namespace, name string, objects, bytes, versions int64) {
	tierObjects.WithLabelValues(namespace, name).Set(float64(objects))
	tierBytes.WithLabelValues(namespace, name).Set(float64(bytes))
	tierVersions.WithLabelValues(namespace, name).Set(float64(versions))
}

// ForgetTier drops a deleted Tier's series.
func ForgetTier(namespace, name string) {
	for _, g := range []*prometheus.GaugeVec{tierHealthy, tierObjects, tierBytes, tierVersions} {
		g.DeleteLabelValues(namespace, name)
	}
}
