package testenv

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Context returns a context that ends after 30 seconds or with the test.
func Context(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// Shown renders what a resource shows users besides its spec, its status
// and annotations, so that a test can check them for secret values.
func Shown(t testing.TB, o client.Object) string {
	t.Helper()
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(struct {
		S any
		A map[string]string
	}{u["status"], o.GetAnnotations()})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
