package metrics

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var (
	stringLiteral = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)
	matchers      = regexp.MustCompile(`\{[^}]*\}`)
	ranges        = regexp.MustCompile(`\[[^\]]*\]`)
	grouping      = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	identifier    = regexp.MustCompile(`[A-Za-z_:][A-Za-z0-9_:]*`)
	keywords      = map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true,
		"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true,
		"inf": true, "nan": true, "Inf": true, "NaN": true}
)

// metricNames returns the metric names a PromQL expression selects,
// sorted: every identifier that is not a function call, keyword, label
// name, string, duration or number.
func metricNames(expr string) []string {
	e := stringLiteral.ReplaceAllString(expr, " ")
	e = matchers.ReplaceAllString(e, " ")
	e = ranges.ReplaceAllString(e, " ")
	e = grouping.ReplaceAllString(e, " ")
	seen := map[string]bool{}
	for _, loc := range identifier.FindAllStringIndex(e, -1) {
		name := e[loc[0]:loc[1]]
		if loc[0] > 0 && strings.ContainsAny(e[loc[0]-1:loc[0]], "0123456789.$") {
			continue // the exponent of a number, a unit or a variable
		}
		if keywords[name] || strings.HasPrefix(strings.TrimLeft(e[loc[1]:], " \t\n"), "(") {
			continue
		}
		seen[name] = true
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func TestMetricNames(t *testing.T) {
	cases := map[string]struct {
		expr string
		want []string
	}{
		"Selector":  {expr: `rustfs_tier_remote_healthy == 0`, want: []string{"rustfs_tier_remote_healthy"}},
		"Matchers":  {expr: `rustfs_requests_total{code!~"2xx|by(x)", operation="tier.add"}`, want: []string{"rustfs_requests_total"}},
		"Functions": {expr: `histogram_quantile(0.95, sum by (le, operation) (rate(rustfs_request_duration_seconds_bucket[$__rate_interval])))`, want: []string{"rustfs_request_duration_seconds_bucket"}},
		"Binary": {expr: "sum(rate(a_total[5m])) / sum(rate(b_total[5m] offset 1h)) > 1e3 and on (x) c",
			want: []string{"a_total", "b_total", "c"}},
		"Grouping": {expr: `max by (gvk) (x) > 0 unless ignoring(le) y`, want: []string{"x", "y"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, metricNames(tc.expr)); diff != "" {
				t.Errorf("metricNames(%q) (-want +got):\n%s", tc.expr, diff)
			}
		})
	}
}
