package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	corev1 "k8s.io/api/core/v1"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/metrics"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A scrape is one /metrics page, by family name.
type scrape map[string]*dto.MetricFamily

// scrapeMetrics reads /metrics as the manager's metrics server serves it:
// controller-runtime's registry in the Prometheus text format.
func scrapeMetrics(g gomega.Gomega) scrape {
	srv := httptest.NewServer(promhttp.HandlerFor(ctrlmetrics.Registry, promhttp.HandlerOpts{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/metrics")
	g.Expect(err).NotTo(gomega.HaveOccurred())
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	g.Expect(err).NotTo(gomega.HaveOccurred(), "/metrics is not in the text format")
	return mfs
}

func labelsOf(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

func labelNames(m *dto.Metric) []string {
	var out []string
	for n := range labelsOf(m) {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// value returns the value of the sample of family name whose labels
// include want, and whether there is one.
func (s scrape) value(name string, want map[string]string) (float64, bool) {
	for _, m := range s[name].GetMetric() {
		if matches(labelsOf(m), want) {
			switch {
			case m.Counter != nil:
				return m.GetCounter().GetValue(), true
			case m.Gauge != nil:
				return m.GetGauge().GetValue(), true
			case m.Histogram != nil:
				return float64(m.GetHistogram().GetSampleCount()), true
			}
		}
	}
	return 0, false
}

// get is value without whether the sample exists (0 when it does not).
func (s scrape) get(name string, want map[string]string) float64 {
	v, _ := s.value(name, want)
	return v
}

func matches(got, want map[string]string) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// tierGauges are the series the tier controller sets from a Tier's
// health and statistics (metrics.SetTierHealth, SetTierStats).
var tierGauges = []string{"rustfs_tier_remote_healthy", "rustfs_tier_objects", "rustfs_tier_bytes", "rustfs_tier_versions"}

// expectDocumented checks that every series docs/metrics.md lists is
// served, of its type, with exactly its documented label names.
func expectDocumented(g gomega.Gomega, s scrape) {
	for _, want := range metrics.Series() {
		mf, ok := s[want.Name]
		g.Expect(ok).To(gomega.BeTrue(), "series %s is documented but not served", want.Name)
		g.Expect(strings.ToLower(mf.GetType().String())).To(gomega.Equal(string(want.Kind)), "type of %s", want.Name)
		labels := slices.Sorted(slices.Values(want.Labels))
		for _, m := range mf.GetMetric() {
			g.Expect(labelNames(m)).To(gomega.Equal(labels), "labels of a %s sample", want.Name)
		}
	}
}

// A gvk is the gvk label of a kind, as crossplane-runtime writes it.
func gvk(kind string) string { return v1alpha1.SchemeGroupVersion.String() + ", Kind=" + kind }

// After a Tier, a Bucket and a BucketLifecycle become Ready and the Tier
// healthy, drift on the lifecycle is corrected and the BucketLifecycle is
// deleted, /metrics serves every documented series with its labels, and
// the values the scenario caused: requests by operation and code, state
// counts by kind, first reconcile, readiness, drift and deletion times,
// and tier gauges equal to the Tier's status, dropped with the Tier.
func TestMetricsServeEveryDocumentedSeries(t *testing.T) {
	testenv.Skip(t)
	w := newStoppedWorld(t, shortPoll)
	w.verify = time.Second
	w.local.SeedTierStats("COLD", rustfstest.TierStat{TotalSize: 4096, NumVersions: 3, NumObjects: 2})
	t.Cleanup(w.startProvider())
	t.Cleanup(w.finish)
	tr, b, lc := w.tenant()
	w.create(tr, b, lc)
	w.waitReady(tr, b, lc)
	w.waitHealthy(tr, corev1.ConditionTrue)
	drift := strings.Replace(w.liveLifecycles("data")["data"], "<Days>7</Days>", "<Days>8</Days>", 1)
	if err := w.local.SetLifecycleXML("data", []byte(drift)); err != nil {
		t.Fatalf("cannot change the lifecycle out of band: %v", err)
	}
	w.eventually(func(g gomega.Gomega) {
		g.Expect(scrapeMetrics(g).get("crossplane_managed_resource_drift_seconds", map[string]string{"gvk": gvk("BucketLifecycle")})).
			To(gomega.BeNumerically(">", 0), "drift of the BucketLifecycle")
	})
	if err := env.Client.Delete(w.ctx, lc); err != nil {
		t.Fatalf("cannot delete the BucketLifecycle: %v", err)
	}
	w.eventually(func(g gomega.Gomega) {
		s := scrapeMetrics(g)
		expectDocumented(g, s)
		expectScenario(g, s)
	})
	w.expectTierGauges(tr)
}

// expectScenario checks the values the scenario must have caused.
func expectScenario(g gomega.Gomega, s scrape) {
	for _, op := range []string{"tier.add", "tier.list", "bucket.create", "bucket.head", "lifecycle.put", "lifecycle.get"} {
		n, _ := s.value("rustfs_requests_total", map[string]string{"operation": op, "code": "2xx"})
		g.Expect(n).To(gomega.BeNumerically(">", 0), "successful %s requests", op)
		d, _ := s.value("rustfs_request_duration_seconds", map[string]string{"operation": op})
		g.Expect(d).To(gomega.BeNumerically(">", 0), "%s durations", op)
	}
	for _, kind := range []string{"Tier", "Bucket"} {
		for _, name := range []string{"exists", "ready", "synced"} {
			n, _ := s.value("crossplane_managed_resource_"+name, map[string]string{"gvk": gvk(kind)})
			g.Expect(n).To(gomega.BeNumerically(">", 0), "crossplane_managed_resource_%s of %s", name, kind)
		}
		for _, name := range []string{"first_time_to_reconcile_seconds", "first_time_to_readiness_seconds"} {
			n, _ := s.value("crossplane_managed_resource_"+name, map[string]string{"gvk": gvk(kind)})
			g.Expect(n).To(gomega.BeNumerically(">", 0), "crossplane_managed_resource_%s of %s", name, kind)
		}
	}
	n, _ := s.value("crossplane_managed_resource_deletion_seconds", map[string]string{"gvk": gvk("BucketLifecycle")})
	g.Expect(n).To(gomega.BeNumerically(">", 0), "deletion of the BucketLifecycle")
	for kind, cond := range map[string]string{"Tier": "TierConflict", "Bucket": "BucketConflict", "BucketLifecycle": "LifecycleDegraded"} {
		_, ok := s.value("rustfs_managed_resource_condition_true", map[string]string{"gvk": gvk(kind), "condition": cond})
		g.Expect(ok).To(gomega.BeTrue(), "rustfs_managed_resource_condition_true for %s %s", kind, cond)
	}
	n, _ = s.value("rustfs_managed_reconciles_total", map[string]string{"controller": "managed/tier." + v1alpha1.Group})
	g.Expect(n).To(gomega.BeNumerically(">", 0), "Tier reconciles")
}

// expectTierGauges checks that the tier gauges of tr agree with what its
// status reports (RemoteHealthy, status.atProvider.stats), and that they
// are dropped when the Tier is deleted.
func (w *world) expectTierGauges(tr *v1alpha1.Tier) {
	w.t.Helper()
	key := map[string]string{"namespace": tr.GetNamespace(), "name": tr.GetName()}
	w.eventually(func(g gomega.Gomega) {
		want := w.tierStatusGauges(g, tr)
		s := scrapeMetrics(g)
		for name, v := range want {
			got, ok := s.value(name, key)
			g.Expect(ok).To(gomega.BeTrue(), "%s%v is not served", name, key)
			g.Expect(got).To(gomega.Equal(v), "%s%v", name, key)
		}
	})
	if err := env.Client.Delete(w.ctx, tr); err != nil {
		w.t.Fatalf("cannot delete the Tier: %v", err)
	}
	w.eventually(func(g gomega.Gomega) {
		s := scrapeMetrics(g)
		for _, name := range tierGauges {
			_, ok := s.value(name, key)
			g.Expect(ok).To(gomega.BeFalse(), "%s%v is still served after the Tier was deleted", name, key)
		}
	})
}

// tierStatusGauges returns the tier gauge values the status of tr
// implies; the scenario seeded non-zero statistics, so a gauge left at
// zero cannot pass for one set from the status.
func (w *world) tierStatusGauges(g gomega.Gomega, tr *v1alpha1.Tier) map[string]float64 {
	w.get(g, tr)
	g.Expect(tr.GetCondition(v1alpha1.TypeRemoteHealthy).Status).To(gomega.Equal(corev1.ConditionTrue), "RemoteHealthy of Tier %s", tr.GetName())
	st := tr.Status.AtProvider.Stats
	g.Expect(st).NotTo(gomega.BeNil(), "status.atProvider.stats of Tier %s", tr.GetName())
	g.Expect(st.Bytes).To(gomega.Equal(int64(4096)), "status.atProvider.stats.bytes of Tier %s", tr.GetName())
	return map[string]float64{"rustfs_tier_remote_healthy": 1, "rustfs_tier_objects": float64(st.Objects),
		"rustfs_tier_bytes": float64(st.Bytes), "rustfs_tier_versions": float64(st.Versions)}
}
