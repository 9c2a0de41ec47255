package custody

import (
	"context"
	"errors"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
)

// The provider asks the API server once whether it may get, list and
// watch Namespaces; without all three it watches none.
func TestNamespaceAccess(t *testing.T) {
	cases := map[string]struct {
		reason  string
		allowed map[string]bool
		want    bool
	}{
		"Granted":    {reason: "get, list and watch granted: Namespaces are watched.", allowed: map[string]bool{"get": true, "list": true, "watch": true}, want: true},
		"NoWatch":    {reason: "Without watch, label changes would go unseen: no access.", allowed: map[string]bool{"get": true, "list": true}},
		"Crossplane": {reason: "Crossplane v2 grants a provider no Namespace access by default.", allowed: map[string]bool{}},
	}
	failing := interceptor.Funcs{Create: func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
		return errors.New("authorization API unavailable")
	}}
	if NewShared().NamespaceAccess(context.Background(), fake.NewClientBuilder().WithInterceptorFuncs(failing).Build(), logging.NewNopLogger()) {
		t.Error("NamespaceAccess(...): a failed check must answer no access")
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			if err := authorizationv1.AddToScheme(s); err != nil {
				t.Fatal(err)
			}
			asked := 0
			kube := fake.NewClientBuilder().WithScheme(s).WithInterceptorFuncs(interceptor.Funcs{
				Create: func(_ context.Context, _ client.WithWatch, o client.Object, _ ...client.CreateOption) error {
					r := o.(*authorizationv1.SelfSubjectAccessReview)
					asked++
					r.Status.Allowed = tc.allowed[r.Spec.ResourceAttributes.Verb] && r.Spec.ResourceAttributes.Resource == "namespaces"
					return nil
				},
			}).Build()
			shared := NewShared()
			for range 2 {
				if got := shared.NamespaceAccess(context.Background(), kube, logging.NewNopLogger()); got != tc.want {
					t.Fatalf("%s\nNamespaceAccess(...): want %t, got %t", tc.reason, tc.want, got)
				}
			}
			if asked > 3 {
				t.Errorf("%s\nasked %d times for two checks; want the answer kept", tc.reason, asked)
			}
		})
	}
}
