package v1alpha1_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// documentedColumns returns, per kind, the columns of the "kubectl views"
// table of docs/operability.md, without their parenthesised notes.
func documentedColumns(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../../docs/operability.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n## kubectl views\n")
	if !ok {
		t.Fatal("docs/operability.md has no kubectl views section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	notes := regexp.MustCompile(`\s*\([^)]*\)`)
	out := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.TrimSpace(cells[1]) == "kind" || strings.HasPrefix(strings.TrimSpace(cells[1]), "-") {
			continue
		}
		kind := strings.TrimSpace(cells[1])
		for _, c := range strings.Split(notes.ReplaceAllString(cells[2], ""), ",") {
			out[kind] = append(out[kind], strings.TrimSpace(c))
		}
	}
	return out
}

// servedColumns returns the columns kubectl get shows for the CRD in file:
// its printer columns of priority 0.
func servedColumns(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile("../../package/provider/crds/" + file)
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.Unmarshal(b, crd); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var out []string
	for _, c := range crd.Spec.Versions[0].AdditionalPrinterColumns {
		if c.Priority == 0 {
			out = append(out, c.Name)
		}
	}
	return out
}

// TestDocumentedColumns checks that docs/operability.md lists, for every
// managed resource kind, exactly the columns its CRD gives kubectl get.
func TestDocumentedColumns(t *testing.T) {
	files := map[string]string{
		"Tier":            "rustfs.m.crossplane.io_tiers.yaml",
		"Bucket":          "rustfs.m.crossplane.io_buckets.yaml",
		"BucketLifecycle": "rustfs.m.crossplane.io_bucketlifecycles.yaml",
		"BucketAccess":    "rustfs.m.crossplane.io_bucketaccesses.yaml",
	}
	want := map[string][]string{}
	for kind, file := range files {
		want[kind] = servedColumns(t, file)
	}
	if diff := cmp.Diff(want, documentedColumns(t)); diff != "" {
		t.Errorf("docs/operability.md's kubectl views differ from the CRDs' printer columns (-CRD +doc):\n%s", diff)
	}
}
