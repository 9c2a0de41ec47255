package metrics

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
)

// documented returns the rows of the Series table of docs/metrics.md.
func documented(t *testing.T) []Serie {
	t.Helper()
	_, table, ok := strings.Cut(metricsDoc(t), "\n## Series\n")
	if !ok {
		t.Fatal("docs/metrics.md has no Series section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	var out []Serie
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		s := Serie{Name: strings.Trim(strings.TrimSpace(cells[1]), "`"), Kind: Kind(strings.TrimSpace(cells[2]))}
		for _, l := range strings.Split(cells[3], ",") {
			s.Labels = append(s.Labels, strings.Trim(strings.TrimSpace(l), "`"))
		}
		out = append(out, s)
	}
	return out
}

// docs/metrics.md documents exactly the series Series lists, with their
// types and labels.
func TestDocumentedSeries(t *testing.T) {
	if diff := cmp.Diff(Series(), documented(t)); diff != "" {
		t.Errorf("docs/metrics.md differs from Series() (-Series +doc):\n%s", diff)
	}
}

// documentedOperations returns the operation label values the Labels
// section of docs/metrics.md lists: every backquoted word of its
// "`operation` is one of" item, sorted.
func documentedOperations(t *testing.T) []string {
	t.Helper()
	_, item, ok := strings.Cut(metricsDoc(t), "\n- `operation` is one of ")
	if !ok {
		t.Fatal("docs/metrics.md has no \"- `operation` is one of\" item")
	}
	item, _, _ = strings.Cut(item, "\n- ")
	var out []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(item, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

// docs/metrics.md lists exactly the operation labels the client reports.
func TestDocumentedOperations(t *testing.T) {
	want := slices.Sorted(slices.Values(rustfs.Operations()))
	if diff := cmp.Diff(want, documentedOperations(t)); diff != "" {
		t.Errorf("docs/metrics.md's operation labels differ from rustfs.Operations() (-client +doc):\n%s", diff)
	}
}

// metricsDoc returns the text of docs/metrics.md.
func metricsDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
