package testenv

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Examples returns the objects of every YAML document in examples/<dir>.
func Examples(t testing.TB, dir string) []*unstructured.Unstructured {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Root(), "examples", dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("examples/%s: %d files, %v", dir, len(files), err)
	}
	var objs []*unstructured.Unstructured
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
		for {
			u := &unstructured.Unstructured{}
			if err := r.Decode(&u.Object); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if len(u.Object) > 0 {
				objs = append(objs, u)
			}
		}
	}
	return objs
}

// DryRunExamples checks that the API server accepts every object in
// examples/<dir>: schema, defaults and CEL rules.
func (e *Env) DryRunExamples(t *testing.T, dir string) {
	t.Helper()
	for _, u := range Examples(t, dir) {
		if ns := u.GetNamespace(); ns != "" {
			n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}
			if err := e.Client.Create(context.Background(), n); err != nil && !kerrors.IsAlreadyExists(err) {
				t.Fatalf("cannot create namespace %s: %v", ns, err)
			}
		}
		if err := e.Client.Create(context.Background(), u, client.DryRunAll); err != nil {
			t.Errorf("examples/%s: the API server refused %s %s: %v", dir, u.GetKind(), u.GetName(), err)
		}
	}
}
