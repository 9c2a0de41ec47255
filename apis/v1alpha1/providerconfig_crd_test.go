package v1alpha1_test

import (
	"context"
	"os"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}

// wantAdmission checks that creating obj succeeds when want is "", or
// fails with an error containing want.
func wantAdmission(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("create: want accepted, got %v", err)
	case want != "" && err == nil:
		t.Fatalf("create: want rejected with %q, got accepted", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Fatalf("create: want error containing %q, got %v", want, err)
	}
}

// createProviderConfig creates the ProviderConfig default/<name> with spec
// and an admin Secret reference.
func createProviderConfig(name string, spec map[string]any) error {
	spec["credentials"] = map[string]any{"source": "Secret", "secretRef": map[string]any{"name": "rustfs-admin"}}
	pc := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	pc.SetGroupVersionKind(v1alpha1.ProviderConfigGroupVersionKind)
	pc.SetNamespace("default")
	pc.SetName(name)
	return env.Client.Create(context.Background(), pc)
}

func TestProviderConfigAdmission(t *testing.T) {
	testenv.Skip(t)
	cases := map[string]struct {
		reason string
		spec   map[string]any
		want   string
	}{
		"FTPEndpoint": {
			reason: "Only http and https endpoints reach RustFS.",
			spec:   map[string]any{"endpoint": "ftp://rustfs.example.com"},
			want:   "endpoint must be an http:// or https:// URL with a host",
		},
		"UserInfoEndpoint": {
			reason: "Credentials in the endpoint would be quoted in errors and sent in every request line.",
			spec:   map[string]any{"endpoint": "https://admin:pa55-sentinel@rustfs.example.com"},
			want:   "endpoint must not contain user info (user:password@), a query or a fragment",
		},
		"QueryEndpoint": {
			reason: "A query in the endpoint is refused.",
			spec:   map[string]any{"endpoint": "https://rustfs.example.com/?token=pa55-sentinel"},
			want:   "endpoint must not contain user info (user:password@), a query or a fragment",
		},
		"FragmentEndpoint": {
			reason: "A fragment in the endpoint is refused.",
			spec:   map[string]any{"endpoint": "https://rustfs.example.com/#pa55-sentinel"},
			want:   "endpoint must not contain user info (user:password@), a query or a fragment",
		},
		"MissingEndpoint": {
			reason: "The endpoint is required.",
			spec:   map[string]any{},
			want:   "spec.endpoint: Required value",
		},
		"Valid": {
			reason: "An https endpoint is accepted.",
			spec:   map[string]any{"endpoint": "https://rustfs.storage.svc:9000"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := createProviderConfig(strings.ToLower(name), tc.spec)
			wantAdmission(t, err, tc.want)
			if err != nil && strings.Contains(err.Error(), "pa55") {
				t.Errorf("the refusal quotes the endpoint's secret part: %v", err)
			}
		})
	}
}

func TestProviderConfigDefaults(t *testing.T) {
	testenv.Skip(t)
	pc := &v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "defaults"},
		Spec: v1alpha1.ClusterProviderConfigSpec{
			EndpointSettings: v1alpha1.EndpointSettings{Endpoint: "http://127.0.0.1:9000"},
			Credentials: v1alpha1.ClusterCredentials{
				Source:    xpv2.CredentialsSourceSecret,
				SecretRef: xpv2.SecretReference{Namespace: "crossplane-system", Name: "rustfs-admin"},
			},
		},
	}
	if err := env.Client.Create(context.Background(), pc); err != nil {
		t.Fatal(err)
	}
	got := pc.Spec
	if got.Region != "us-east-1" || got.Credentials.AccessKeyKey != "accesskey" || got.Credentials.SecretKeyKey != "secretkey" {
		t.Errorf("defaults: want region us-east-1 and keys accesskey/secretkey, got %q %q %q",
			got.Region, got.Credentials.AccessKeyKey, got.Credentials.SecretKeyKey)
	}
}
