package custody

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// Longer lists, sorted, the namespaces whose names start with the
// namespace's and a '-', and nothing without access to Namespaces.
func TestNamespacesLonger(t *testing.T) {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	var objs []runtime.Object
	for _, n := range []string{"team", "team-b", "team-a", "team-a-b", "teams", "other", "xteam-a"} {
		objs = append(objs, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}})
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithRuntimeObjects(objs...).Build()
	cases := map[string]struct {
		reason   string
		ns       string
		allowed  bool
		want     []string
		noAccess bool
	}{
		"Team":     {reason: "every longer namespace, not teams or xteam-a", ns: "team", allowed: true, want: []string{"team-a", "team-a-b", "team-b"}},
		"TeamA":    {reason: "team-a-b only", ns: "team-a", allowed: true, want: []string{"team-a-b"}},
		"None":     {reason: "no longer namespace", ns: "other", allowed: true},
		"NoAccess": {reason: "without access to Namespaces, an error that says so", ns: "team", noAccess: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Namespaces{Reader: kube, Allowed: tc.allowed}.Longer(context.Background(), tc.ns)
			if NoNamespaceAccess(err) != tc.noAccess || (err != nil && !tc.noAccess) {
				t.Fatalf("%s: error %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
