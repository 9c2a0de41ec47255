package e2e

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// newNamespace creates a namespace for one test. envtest runs no namespace
// controller, so it is never removed; names are generated.
func newNamespace(t *testing.T) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "e2e-"}}
	if err := env.Client.Create(context.Background(), ns); err != nil {
		t.Fatalf("cannot create namespace: %v", err)
	}
	return ns.Name
}
