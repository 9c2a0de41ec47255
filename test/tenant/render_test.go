package tenant

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A compositeType is an XRD and the Composition of its composite resources,
// as package/configuration ships them.
type compositeType struct {
	xrd, composition string
}

var (
	tenantType  = compositeType{xrd: packageFile("xrd-tenant.yaml"), composition: packageFile("composition-tenant.yaml")}
	xtenantType = compositeType{xrd: packageFile("xrd-xtenant.yaml"), composition: packageFile("composition-xtenant.yaml")}
)

func packageFile(name string) string {
	return filepath.Join(testenv.Root(), "package", "configuration", name)
}

// A rendered is the output of one render: the composite resource, with its
// full spec, and the composed resources.
type rendered struct {
	xr       *unstructured.Unstructured
	composed unstructuredList
}

// all is the composite resource followed by the composed resources.
func (r rendered) all() unstructuredList {
	return append(unstructuredList{r.xr}, r.composed...)
}

// render runs crossplane composition render of xr with the Composition of
// ct and the Tenant function. observed, when given, is the observed state of
// the composed resources.
func (e *engine) render(t *testing.T, ct compositeType, xr *unstructured.Unstructured, observed ...*unstructured.Unstructured) rendered {
	t.Helper()
	dir := t.TempDir()
	args := []string{"composition", "render", "--include-full-xr",
		writeYAML(t, dir, "xr.yaml", xr), ct.composition, e.functions,
		"--xrd=" + ct.xrd, "--crossplane-binary=" + e.core}
	if len(observed) > 0 {
		args = append(args, "--observed-resources="+writeYAML(t, dir, "observed.yaml", observed...))
	}
	docs := decodeYAML(t, e.crossplane(t, args...))
	if len(docs) == 0 || docs[0].GetKind() != xr.GetKind() {
		t.Fatalf("render did not start with the %s:\n%s", xr.GetKind(), redact(string(mustYAML(t, docs...))))
	}
	return rendered{xr: docs[0], composed: docs[1:]}
}

// A validation is the JSON report of crossplane resource validate.
type validation struct {
	Summary struct {
		Total          int `json:"total"`
		Valid          int `json:"valid"`
		Invalid        int `json:"invalid"`
		MissingSchemas int `json:"missingSchemas"`
	} `json:"summary"`
	Resources []struct {
		Kind   string `json:"kind"`
		Name   string `json:"name"`
		Status string `json:"status"`
	} `json:"resources"`
}

// validate runs crossplane resource validate of objs against package/provider/crds
// and the XRD of ct, offline, and fails the test unless every object is
// valid and has a schema.
func (e *engine) validate(t *testing.T, ct compositeType, objs ...*unstructured.Unstructured) {
	t.Helper()
	file := writeYAML(t, t.TempDir(), "resources.yaml", objs...)
	out := e.crossplane(t, "resource", "validate",
		filepath.Join(testenv.Root(), "package", "provider", "crds")+","+ct.xrd, file,
		"--cache-dir="+e.cache, "--crossplane-image="+crossplaneImage,
		"--error-on-missing-schemas", "--output=json")
	var v validation
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("cannot read the validate report: %v\n%s", err, redact(string(out)))
	}
	want := validation{}.Summary
	want.Total, want.Valid = len(objs), len(objs)
	if diff := cmp.Diff(want, v.Summary); diff != "" {
		t.Errorf("crossplane resource validate: -want +got summary:\n%s\nreport:\n%s", diff, redact(string(out)))
	}
}

// readExample reads a single-document file of examples/tenant.
func readExample(name string) (*unstructured.Unstructured, error) {
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "examples", "tenant", name))
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read examples/tenant/%s", name)
	}
	u := &unstructured.Unstructured{}
	return u, errors.Wrapf(yaml.Unmarshal(b, &u.Object), "cannot decode examples/tenant/%s", name)
}

// marshalYAML encodes objs as a multi-document YAML stream.
func marshalYAML(objs ...*unstructured.Unstructured) ([]byte, error) {
	var buf bytes.Buffer
	for _, o := range objs {
		b, err := yaml.Marshal(o.Object)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot encode %s %s", o.GetKind(), o.GetName())
		}
		buf.WriteString("---\n")
		buf.Write(b)
	}
	return buf.Bytes(), nil
}

func mustYAML(t *testing.T, objs ...*unstructured.Unstructured) []byte {
	t.Helper()
	b, err := marshalYAML(objs...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeYAML writes objs to dir/name and returns the path.
func writeYAML(t *testing.T, dir, name string, objs ...*unstructured.Unstructured) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, mustYAML(t, objs...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// decodeYAML decodes a multi-document YAML stream, skipping empty
// documents.
func decodeYAML(t *testing.T, b []byte) unstructuredList {
	t.Helper()
	var out unstructuredList
	d := kyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for {
		u := &unstructured.Unstructured{}
		err := d.Decode(&u.Object)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("cannot decode the render output: %v", err)
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}
