package metrics

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

const (
	dashboardFile = "../../examples/monitoring/dashboard.json"
	rulesFile     = "../../examples/monitoring/prometheusrule.yaml"
)

// served returns every sample name the provider's own series serve.
func served() map[string]bool {
	out := map[string]bool{}
	for _, s := range Series() {
		for _, n := range s.Names() {
			out[n] = true
		}
	}
	return out
}

// unknownNames returns the metric names exprs select that the provider
// does not serve, sorted.
func unknownNames(exprs []string) []string {
	known := served()
	var out []string
	for _, e := range exprs {
		for _, n := range metricNames(e) {
			if !known[n] && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// dashboardExprs returns every "expr" string anywhere in a Grafana dashboard.
func dashboardExprs(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d any
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if s, ok := c.(string); ok && k == "expr" {
					out = append(out, s)
				}
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(d)
	return out
}

// A prometheusRule is the monitoring.coreos.com/v1 PrometheusRule shape,
// as far as the example uses it; strict decoding refuses any other field.
type prometheusRule struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string            `json:"name"`
		Namespace string            `json:"namespace"`
		Labels    map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		Groups []struct {
			Name     string `json:"name"`
			Interval string `json:"interval,omitempty"`
			Rules    []rule `json:"rules"`
		} `json:"groups"`
	} `json:"spec"`
}

type rule struct {
	Alert       string            `json:"alert,omitempty"`
	Record      string            `json:"record,omitempty"`
	Expr        string            `json:"expr"`
	For         string            `json:"for,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

func loadRules(t *testing.T) prometheusRule {
	t.Helper()
	b, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	var pr prometheusRule
	if err := yaml.UnmarshalStrict(b, &pr); err != nil {
		t.Fatalf("%s is not a PrometheusRule: %v", rulesFile, err)
	}
	return pr
}

// The example PrometheusRule has the monitoring.coreos.com/v1 shape and the
// alerts docs/metrics.md promises, each complete.
func TestPrometheusRuleShape(t *testing.T) {
	pr := loadRules(t)
	if pr.APIVersion != "monitoring.coreos.com/v1" || pr.Kind != "PrometheusRule" || pr.Metadata.Name == "" || len(pr.Spec.Groups) == 0 {
		t.Fatalf("not a named monitoring.coreos.com/v1 PrometheusRule with groups: %s %s %q, %d groups",
			pr.APIVersion, pr.Kind, pr.Metadata.Name, len(pr.Spec.Groups))
	}
	var alerts []string
	for _, g := range pr.Spec.Groups {
		for _, r := range g.Rules {
			alerts = append(alerts, r.Alert)
			checkRule(t, g.Name, r)
		}
	}
	want := []string{"RustFSTierConflict", "RustFSTierUnhealthy", "RustFSLifecycleDegraded", "RustFSRequestErrors", "RustFSManagedResourcesNotReady"}
	if diff := cmp.Diff(want, alerts); diff != "" {
		t.Errorf("alerts (-want +got):\n%s", diff)
	}
}

func checkRule(t *testing.T, group string, r rule) {
	t.Helper()
	if (r.Alert == "") == (r.Record == "") || r.Expr == "" {
		t.Errorf("group %s: a rule needs exactly one of alert and record, and an expr: %+v", group, r)
	}
	if _, err := time.ParseDuration(r.For); r.Alert != "" && err != nil {
		t.Errorf("alert %s: for %q: %v", r.Alert, r.For, err)
	}
	if r.Alert != "" && (r.Labels["severity"] == "" || r.Annotations["summary"] == "" || r.Annotations["description"] == "") {
		t.Errorf("alert %s needs a severity label and summary and description annotations", r.Alert)
	}
}

// Every series the example alerts and dashboard select is one the provider
// serves, and each of them selects at least one.
func TestExamplesNameServedSeries(t *testing.T) {
	var rules []string
	for _, g := range loadRules(t).Spec.Groups {
		for _, r := range g.Rules {
			rules = append(rules, r.Expr)
		}
	}
	for file, exprs := range map[string][]string{rulesFile: rules, dashboardFile: dashboardExprs(t)} {
		if len(exprs) == 0 {
			t.Errorf("%s: no expressions found", file)
		}
		for _, e := range exprs {
			if len(metricNames(e)) == 0 {
				t.Errorf("%s: %q selects no series", file, e)
			}
		}
		if unknown := unknownNames(exprs); len(unknown) != 0 {
			t.Errorf("%s names series the provider does not serve: %v", file, unknown)
		}
	}
}

// The check above catches a name the provider does not serve, and a
// histogram's base name, which is not served as such.
func TestUnknownNames(t *testing.T) {
	cases := map[string]struct {
		exprs []string
		want  []string
	}{
		"Served":    {exprs: []string{`rate(rustfs_requests_total[5m])`, `rustfs_request_duration_seconds_count`}},
		"Unknown":   {exprs: []string{`rustfs_tier_remote_healthy == 0`, `rustfs_no_such_series > 0`}, want: []string{"rustfs_no_such_series"}},
		"Histogram": {exprs: []string{`rate(rustfs_request_duration_seconds[5m])`}, want: []string{"rustfs_request_duration_seconds"}},
		"Typo":      {exprs: []string{`sum(rustfs_request_total)`}, want: []string{"rustfs_request_total"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, unknownNames(tc.exprs)); diff != "" {
				t.Errorf("unknownNames(%q) (-want +got):\n%s", tc.exprs, diff)
			}
		})
	}
}
