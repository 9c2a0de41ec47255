package metrics

// A Kind is a Prometheus metric type.
type Kind string

// The metric types the provider serves.
const (
	Counter   Kind = "counter"
	Gauge     Kind = "gauge"
	Histogram Kind = "histogram"
)

// A Serie is one metric family the provider serves, as docs/metrics.md
// documents it.
type Serie struct {
	Name   string
	Kind   Kind
	Labels []string
}

// Series returns every metric family of the provider's own that
// docs/metrics.md documents. The documentation is checked against it, the
// end-to-end test finds each on /metrics, and the example alerts and
// dashboard may name only these (and the families of controller-runtime
// and client-go, which the manager serves too).
func Series() []Serie {
	return []Serie{
		{Name: "rustfs_requests_total", Kind: Counter, Labels: []string{"operation", "code"}},
		{Name: "rustfs_request_duration_seconds", Kind: Histogram, Labels: []string{"operation"}},
		{Name: "rustfs_tier_remote_healthy", Kind: Gauge, Labels: []string{"namespace", "name"}},
		{Name: "rustfs_tier_objects", Kind: Gauge, Labels: []string{"namespace", "name"}},
		{Name: "rustfs_tier_bytes", Kind: Gauge, Labels: []string{"namespace", "name"}},
		{Name: "rustfs_tier_versions", Kind: Gauge, Labels: []string{"namespace", "name"}},
		{Name: "rustfs_managed_reconciles_total", Kind: Counter, Labels: []string{"controller", "cause"}},
		{Name: "rustfs_deferred_reconciles_total", Kind: Counter, Labels: []string{"controller"}},
		{Name: "rustfs_managed_resource_condition_true", Kind: Gauge, Labels: []string{"gvk", "condition"}},
		{Name: "crossplane_managed_resource_exists", Kind: Gauge, Labels: []string{"gvk"}},
		{Name: "crossplane_managed_resource_ready", Kind: Gauge, Labels: []string{"gvk"}},
		{Name: "crossplane_managed_resource_synced", Kind: Gauge, Labels: []string{"gvk"}},
		{Name: "crossplane_managed_resource_first_time_to_reconcile_seconds", Kind: Histogram, Labels: []string{"gvk"}},
		{Name: "crossplane_managed_resource_first_time_to_readiness_seconds", Kind: Histogram, Labels: []string{"gvk"}},
		{Name: "crossplane_managed_resource_drift_seconds", Kind: Histogram, Labels: []string{"gvk"}},
		{Name: "crossplane_managed_resource_deletion_seconds", Kind: Histogram, Labels: []string{"gvk"}},
	}
}

// Names returns the sample names of s as served: a histogram's _bucket,
// _sum and _count, or the name itself.
func (s Serie) Names() []string {
	if s.Kind == Histogram {
		return []string{s.Name + "_bucket", s.Name + "_sum", s.Name + "_count"}
	}
	return []string{s.Name}
}
