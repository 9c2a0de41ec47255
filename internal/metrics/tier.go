// Package metrics holds the provider's own Prometheus metrics. This file is
// a placeholder with the interface agreed with the ops-metrics work; that
// branch replaces it with the real gauges.
package metrics

// SetTierHealth records the RemoteHealthy state of one Tier (namespace, name).
func SetTierHealth(namespace, name string, healthy bool) {}

// SetTierStats records the statistics of one Tier.
func SetTierStats(namespace, name string, objects, bytes, versions int64) {}

// ForgetTier drops a deleted Tier's series.
func ForgetTier(namespace, name string) {}
