package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// families gathers controller-runtime's registry, which /metrics serves.
func families(t *testing.T) map[string]*dto.MetricFamily {
	t.Helper()
	mfs, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, mf := range mfs {
		out[mf.GetName()] = mf
	}
	return out
}

// sample returns the metric of family name with exactly labels, if any.
func sample(t *testing.T, name string, labels map[string]string) (*dto.Metric, bool) {
	t.Helper()
	for _, m := range families(t)[name].GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		if cmp.Equal(labels, got) {
			return m, true
		}
	}
	return nil, false
}

func counter(t *testing.T, name string, labels map[string]string) float64 {
	t.Helper()
	m, _ := sample(t, name, labels)
	return m.GetCounter().GetValue()
}

// Requests are counted under the operation and code given when both are in
// the client's bounded sets, and under "unknown" and "other" when not, so
// a bug cannot put free text (or a secret) into a label.
func TestObserveRequest(t *testing.T) {
	const secret = "remote-sk-sentinel-SECRET"
	cases := map[string]struct {
		reason        string
		op, code      string
		wantOp, wantC string
	}{
		"Success":     {reason: "a known operation and code are kept", op: rustfs.OpAddTier, code: "2xx", wantOp: rustfs.OpAddTier, wantC: "2xx"},
		"NamedCode":   {reason: "a known error code is kept", op: rustfs.OpHeadBucket, code: "NoSuchBucket", wantOp: rustfs.OpHeadBucket, wantC: "NoSuchBucket"},
		"FreeCode":    {reason: "a code outside the set becomes other", op: rustfs.OpVerifyTier, code: "denied for " + secret, wantOp: rustfs.OpVerifyTier, wantC: rustfs.CodeOther},
		"FreeOp":      {reason: "an operation outside the set becomes unknown", op: "GET /bucket-of-" + secret, code: "2xx", wantOp: rustfs.OpUnknown, wantC: "2xx"},
		"EmptyLabels": {reason: "empty labels are not kept", op: "", code: "", wantOp: rustfs.OpUnknown, wantC: rustfs.CodeOther},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			labels := map[string]string{"operation": tc.wantOp, "code": tc.wantC}
			before := counter(t, "rustfs_requests_total", labels)
			Requests.ObserveRequest(tc.op, tc.code, 1500*time.Millisecond)
			if got := counter(t, "rustfs_requests_total", labels); got != before+1 {
				t.Errorf("\n%s\nrustfs_requests_total%v = %v, want %v", tc.reason, labels, got, before+1)
			}
			h, ok := sample(t, "rustfs_request_duration_seconds", map[string]string{"operation": tc.wantOp})
			if !ok || h.GetHistogram().GetSampleCount() == 0 {
				t.Errorf("\n%s\nno duration recorded for %q", tc.reason, tc.wantOp)
			}
		})
	}
	for _, mf := range families(t) {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), secret) {
					t.Errorf("%s has a label %s holding the secret", mf.GetName(), l.GetName())
				}
			}
		}
	}
}

// The duration buckets reach beyond the client's 90 s remote deadline.
func TestDurationBuckets(t *testing.T) {
	h, ok := sample(t, "rustfs_request_duration_seconds", map[string]string{"operation": rustfs.OpAddTier})
	if !ok {
		Requests.ObserveRequest(rustfs.OpAddTier, "2xx", time.Second)
		h, _ = sample(t, "rustfs_request_duration_seconds", map[string]string{"operation": rustfs.OpAddTier})
	}
	b := h.GetHistogram().GetBucket()
	if len(b) == 0 || b[len(b)-1].GetUpperBound() <= rustfs.DefaultRemoteTimeout.Seconds() {
		t.Errorf("the largest finite bucket must exceed %v; buckets %v", rustfs.DefaultRemoteTimeout, DurationBuckets)
	}
}

// The tier gauges hold what was set last and are gone after ForgetTier,
// for that Tier only.
func TestTierGauges(t *testing.T) {
	a := map[string]string{"namespace": "team-a", "name": "cold"}
	b := map[string]string{"namespace": "team-b", "name": "cold"}
	SetTierHealth("team-a", "cold", true)
	SetTierHealth("team-a", "cold", false)
	SetTierHealth("team-b", "cold", true)
	SetTierStats("team-a", "cold", 3, 4096, 5)
	SetTierStats("team-b", "cold", 1, 2, 3)
	want := map[string]float64{"rustfs_tier_remote_healthy": 0, "rustfs_tier_objects": 3, "rustfs_tier_bytes": 4096, "rustfs_tier_versions": 5}
	for name, v := range want {
		if m, ok := sample(t, name, a); !ok || m.GetGauge().GetValue() != v {
			t.Errorf("%s%v = %v (found %t), want %v", name, a, m.GetGauge().GetValue(), ok, v)
		}
	}
	ForgetTier("team-a", "cold")
	for name := range want {
		if _, ok := sample(t, name, a); ok {
			t.Errorf("%s%v is still served after ForgetTier", name, a)
		}
		if _, ok := sample(t, name, b); !ok {
			t.Errorf("%s%v was dropped with another namespace's Tier", name, b)
		}
	}
	ForgetTier("team-b", "cold")
}

// BenchmarkObserveRequest measures the hook every RustFS request calls.
func BenchmarkObserveRequest(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Requests.ObserveRequest(rustfs.OpHeadBucket, "2xx", 3*time.Millisecond)
	}
}
