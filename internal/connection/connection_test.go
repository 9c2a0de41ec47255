package connection

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis"
	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func scheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// sentinel is a secret value that must never appear in an error.
const sentinel = "SENTINEL-secret-do-not-leak"

// recordingReader records the Secrets read through it.
type recordingReader struct {
	client.Reader
	got []string
}

func (r *recordingReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	r.got = append(r.got, key.String())
	return r.Reader.Get(ctx, key, obj, opts...)
}

func secret(ns, name string, data map[string]string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: "7"}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

func tier(kind, name string) *v1alpha1.Tier {
	t := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "cold", UID: "uid-1"}}
	t.SetProviderConfigReference(&xpv2.ProviderConfigReference{Kind: kind, Name: name})
	return t
}

func objects() []runtime.Object {
	return []runtime.Object{
		&v1alpha1.ProviderConfig{
			ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "local", Generation: 1},
			Spec: v1alpha1.ProviderConfigSpec{
				EndpointSettings: v1alpha1.EndpointSettings{Endpoint: "http://rustfs-a:9000", Region: "eu-1"},
				Credentials:      v1alpha1.LocalCredentials{Source: xpv2.CredentialsSourceSecret, SecretRef: xpv2.LocalSecretReference{Name: "admin"}},
			},
		},
		&v1alpha1.ProviderConfig{
			ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "elsewhere"},
			Spec: v1alpha1.ProviderConfigSpec{
				EndpointSettings: v1alpha1.EndpointSettings{Endpoint: "http://rustfs-a:9000"},
				Credentials:      v1alpha1.LocalCredentials{Source: xpv2.CredentialsSourceSecret, SecretRef: xpv2.LocalSecretReference{Name: "only-in-b"}},
			},
		},
		&v1alpha1.ClusterProviderConfig{
			ObjectMeta: metav1.ObjectMeta{Name: "default"},
			Spec: v1alpha1.ClusterProviderConfigSpec{
				EndpointSettings: v1alpha1.EndpointSettings{Endpoint: "HTTPS://RustFS.example.com:443/"},
				Credentials: v1alpha1.ClusterCredentials{
					Source: xpv2.CredentialsSourceSecret, SecretRef: xpv2.SecretReference{Namespace: "crossplane-system", Name: "admin"},
					CredentialKeys: v1alpha1.CredentialKeys{AccessKeyKey: "ak", SecretKeyKey: "sk"},
				},
			},
		},
		&v1alpha1.ClusterProviderConfig{
			ObjectMeta: metav1.ObjectMeta{Name: "empty-key"},
			Spec: v1alpha1.ClusterProviderConfigSpec{
				EndpointSettings: v1alpha1.EndpointSettings{Endpoint: "http://rustfs:9000"},
				Credentials:      v1alpha1.ClusterCredentials{Source: xpv2.CredentialsSourceSecret, SecretRef: xpv2.SecretReference{Namespace: "crossplane-system", Name: "blank"}},
			},
		},
		&v1alpha1.ClusterProviderConfig{
			ObjectMeta: metav1.ObjectMeta{Name: "missing-secret"},
			Spec: v1alpha1.ClusterProviderConfigSpec{
				EndpointSettings: v1alpha1.EndpointSettings{Endpoint: "http://rustfs:9000"},
				Credentials:      v1alpha1.ClusterCredentials{Source: xpv2.CredentialsSourceSecret, SecretRef: xpv2.SecretReference{Namespace: "crossplane-system", Name: "gone"}},
			},
		},
		secret("team-a", "admin", map[string]string{"accesskey": " team-a-ak\n", "secretkey": sentinel + "\n"}),
		secret("team-b", "only-in-b", map[string]string{"accesskey": "b", "secretkey": sentinel}),
		secret("crossplane-system", "admin", map[string]string{"ak": "root", "sk": sentinel}),
		secret("crossplane-system", "blank", map[string]string{"accesskey": "root", "secretkey": "  \n"}),
	}
}
