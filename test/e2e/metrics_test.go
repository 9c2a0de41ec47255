package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/onsi/gomega"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
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

// tierHealthBuilt reports whether this build's Tier reports its health and
// statistics (status.atProvider.stats, issue 14's tier controller part).
// Until it does, nothing sets the tier gauges, and the test says so.
func tierHealthBuilt() bool {
	_, ok := reflect.TypeOf(v1alpha1.TierObservation{}).FieldByName("Stats")
	return ok
}

// expectDocumented checks that every series docs/metrics.md lists, but
// those in skip, is served, of its type, with exactly its documented
// label names.
func expectDocumented(g gomega.Gomega, s scrape, skip ...string) {
	for _, want := range metrics.Series() {
		if slices.Contains(skip, want.Name) {
			continue
		}
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

// After a Tier, a Bucket and a BucketLifecycle become Ready, drift on the
// lifecycle is corrected and the BucketLifecycle is deleted, /metrics
// serves every documented series with its labels, and the values the
// scenario caused: requests by operation and code, state counts by kind,
// first reconcile, readiness, drift and deletion times.
func TestMetricsServeEveryDocumentedSeries(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, shortPoll)
	tr, b, lc := w.tenant()
	w.create(tr, b, lc)
	w.waitReady(tr, b, lc)
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
	var skip []string
	if !tierHealthBuilt() {
		t.Log("This build's Tier has no status.atProvider.stats: the tier gauges are not checked.")
		skip = tierGauges
	}
	w.eventually(func(g gomega.Gomega) {
		s := scrapeMetrics(g)
		expectDocumented(g, s, skip...)
		expectScenario(g, s)
	})
	if tierHealthBuilt() {
		w.expectTierGauges(tr)
	}
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
	for kind, cond := range map[string]string{"Tier": "TierConflict", "BucketLifecycle": "LifecycleDegraded"} {
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

// tierStatusGauges returns the tier gauge values the status of tr implies.
func (w *world) tierStatusGauges(g gomega.Gomega, tr *v1alpha1.Tier) map[string]float64 {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(v1alpha1.SchemeGroupVersion.WithKind("Tier"))
	g.Expect(env.Client.Get(w.ctx, client.ObjectKeyFromObject(tr), u)).To(gomega.Succeed())
	healthy := ""
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "RemoteHealthy" {
			healthy = fmt.Sprint(m["status"])
		}
	}
	g.Expect(healthy).To(gomega.Equal("True"), "RemoteHealthy of Tier %s", tr.GetName())
	stats, ok, _ := unstructured.NestedMap(u.Object, "status", "atProvider", "stats")
	g.Expect(ok).To(gomega.BeTrue(), "status.atProvider.stats of Tier %s", tr.GetName())
	out := map[string]float64{"rustfs_tier_remote_healthy": 1}
	for field, name := range map[string]string{"objects": "rustfs_tier_objects", "bytes": "rustfs_tier_bytes", "versions": "rustfs_tier_versions"} {
		n, _, _ := unstructured.NestedInt64(stats, field)
		out[name] = float64(n)
	}
	return out
}
