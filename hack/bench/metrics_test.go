package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const page = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests.
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="apiserver",dry_run="",group="rustfs.m.crossplane.io",resource="tiers",scope="resource",subresource="status",verb="PUT",version="v1alpha1"} 7
apiserver_request_total{code="409",component="apiserver",dry_run="",group="rustfs.m.crossplane.io",resource="tiers",scope="resource",subresource="status",verb="PUT",version="v1alpha1"} 2
apiserver_request_total{code="200",component="apiserver",dry_run="",group="rustfs.m.crossplane.io",resource="buckets",scope="resource",subresource="status",verb="PUT",version="v1alpha1"} 5
apiserver_request_total{code="200",component="apiserver",dry_run="",group="rustfs.m.crossplane.io",resource="tiers",scope="resource",subresource="",verb="PUT",version="v1alpha1"} 11
controller_runtime_reconcile_total{controller="managed/tier.rustfs.m.crossplane.io",result="success"} 3
controller_runtime_reconcile_total{controller="managed/tier.rustfs.m.crossplane.io",result="requeue_after"} 4.5e+01
go_memstats_heap_alloc_bytes 1.2345e+07
weird_label{msg="a \"quoted\", comma\nnewline\\"} 1
# TYPE request_duration_seconds histogram
request_duration_seconds_bucket{le="+Inf"} 3
request_duration_seconds_sum 0.5
request_duration_seconds_count 3
# TYPE go_gc_duration_seconds summary
go_gc_duration_seconds{quantile="0.5"} 0.001
go_gc_duration_seconds_sum 0.02
go_gc_duration_seconds_count 17
`

func TestParseMetrics(t *testing.T) {
	s, err := parseMetrics(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{"verb": "PUT", "subresource": "status", "group": "rustfs.m.crossplane.io"}
	cases := map[string]struct {
		reason string
		got    any
		want   any
	}{
		"ByLabel": {
			reason: "Status updates add up by resource across response codes; other verbs and subresources are left out.",
			got:    s.by("apiserver_request_total", "resource", status),
			want:   map[string]float64{"tiers": 9, "buckets": 5},
		},
		"Sum": {
			reason: "Reconciles add up across results, in any float notation.",
			got:    s.sum("controller_runtime_reconcile_total", map[string]string{"controller": "managed/tier.rustfs.m.crossplane.io"}),
			want:   48.0,
		},
		"NoLabels": {reason: "A sample without labels parses.", got: s.sum("go_memstats_heap_alloc_bytes", nil), want: 12345000.0},
		"Escapes": {
			reason: "Escaped quotes, backslashes and newlines in label values parse.",
			got:    s.by("weird_label", "msg", nil),
			want:   map[string]float64{"a \"quoted\", comma\nnewline\\": 1},
		},
		"Histogram": {reason: "Histograms, which the benchmark does not read, are left out; a summary is its count.", got: len(s), want: 9},
		"Summary":   {reason: "A summary's count is read as NAME_count.", got: s.sum("go_gc_duration_seconds_count", nil), want: 17.0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// A malformed page is an error, not a page with fewer series.
func TestParseMetricsMalformed(t *testing.T) {
	for _, page := range []string{"malformed{a=\"b\" 1\n", "not a sample\n"} {
		if _, err := parseMetrics(strings.NewReader(page)); err == nil {
			t.Errorf("parseMetrics(%q): got no error", page)
		}
	}
}
