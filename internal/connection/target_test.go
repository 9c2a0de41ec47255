package connection

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Target reads only the ProviderConfig: no Secret, no usage. It carries
// the tenancy settings the rules decide from, before anything else is read.
func TestTargetReadsNoSecret(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	tenancy := v1alpha1.TenancySettings{NameScope: v1alpha1.NameScopeNamespacePrefix, SharedTiers: []string{"ARCHIVE"}, Adoption: v1alpha1.AdoptionNever}
	cpc := &v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "tenants"},
		Spec: v1alpha1.ClusterProviderConfigSpec{
			EndpointSettings:  v1alpha1.EndpointSettings{Endpoint: "http://rustfs:9000"},
			NamespaceSelector: sel, TenancySettings: tenancy,
			Credentials: v1alpha1.ClusterCredentials{Source: xpv2.CredentialsSourceSecret, SecretRef: xpv2.SecretReference{Namespace: "crossplane-system", Name: "admin"},
				CredentialKeys: v1alpha1.CredentialKeys{AccessKeyKey: "ak", SecretKeyKey: "sk"}},
		},
	}
	kube := fake.NewClientBuilder().WithScheme(scheme(t)).WithRuntimeObjects(append(objects(), cpc)...).Build()
	secrets := &recordingReader{Reader: kube}
	tracked := 0
	r := NewResolver(kube, secrets, resource.ModernTrackerFn(func(context.Context, resource.ModernManaged) error { tracked++; return nil }))

	got, err := r.Target(context.Background(), tier("ClusterProviderConfig", "tenants"))
	if err != nil {
		t.Fatal(err)
	}
	want := &Target{Kind: v1alpha1.ClusterProviderConfigKind, Config: "ClusterProviderConfig tenants", NamespaceSelector: sel, Tenancy: tenancy}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Target{})); diff != "" {
		t.Errorf("Target(...): -want +got:\n%s", diff)
	}
	if tracked != 0 || len(secrets.got) != 0 {
		t.Errorf("Target(...): want no usage and no Secret read, got %d usages and reads %v", tracked, secrets.got)
	}
	c, err := r.Connect(context.Background(), tier("ClusterProviderConfig", "tenants"), got)
	if err != nil {
		t.Fatal(err)
	}
	if tracked != 1 || len(secrets.got) != 1 || c.Target != got {
		t.Errorf("Connect(...): want one usage, one Secret read and the Target kept, got %d, %v", tracked, secrets.got)
	}
}
