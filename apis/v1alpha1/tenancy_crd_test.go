package v1alpha1_test

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// The tenancy settings of both ProviderConfig kinds are checked at
// admission; the namespace selector exists on the cluster kind only.
func TestTenancySettingsAdmission(t *testing.T) {
	testenv.Skip(t)
	cases := tenancyCases()
	maps.Copy(cases, selectorCases())
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			wantAdmission(t, createConfig(t, strings.ToLower(name), tc.cluster, tc.spec), tc.want)
		})
	}
}

// An tenancyCase is a ProviderConfig (cluster: a ClusterProviderConfig)
// spec and the admission error it gets ("" when accepted).
type tenancyCase struct {
	reason  string
	cluster bool
	spec    map[string]any
	want    string
}

// selector returns a namespaceSelector with the given expressions.
func selector(exprs ...map[string]any) map[string]any {
	l := make([]any, len(exprs))
	for i, e := range exprs {
		l[i] = e
	}
	return map[string]any{"matchExpressions": l}
}

func tenancyCases() map[string]tenancyCase {
	return map[string]tenancyCase{
		"UnknownNameScope": {
			reason: "nameScope is Cluster or NamespacePrefix.",
			spec:   map[string]any{"nameScope": "Team"},
			want:   `spec.nameScope: Unsupported value: "Team"`,
		},
		"UnknownAdoption": {
			reason: "adoption is Automatic or Never.", cluster: true,
			spec: map[string]any{"adoption": "Sometimes"},
			want: `spec.adoption: Unsupported value: "Sometimes"`,
		},
		"SharedTiersWithClusterScope": {
			reason: "Under Cluster, sharedTiers are the tiers a transition may name besides its namespace's own.",
			spec:   map[string]any{"sharedTiers": []any{"ARCHIVE"}},
		},
		"SharedTierNotATierName": {
			reason: "A shared tier is a tier name: A-Z 0-9 _ - . only.", cluster: true,
			spec: map[string]any{"nameScope": "NamespacePrefix", "sharedTiers": []any{"archive"}},
			want: "spec.sharedTiers[0]: Invalid value",
		},
		"SharedTiersRepeated": {
			reason: "sharedTiers is a set.",
			spec:   map[string]any{"nameScope": "NamespacePrefix", "sharedTiers": []any{"ARCHIVE", "ARCHIVE"}},
			want:   "Duplicate value",
		},
		"PrefixScopeWithSharedTiers": {
			reason: "NamespacePrefix with shared tiers is accepted on both kinds.", cluster: true,
			spec: map[string]any{"nameScope": "NamespacePrefix", "sharedTiers": []any{"ARCHIVE", "GLACIER-1"}, "adoption": "Never"},
		},
		"NamespacedPrefixScope": {
			reason: "A namespaced ProviderConfig takes the same settings.",
			spec:   map[string]any{"nameScope": "NamespacePrefix", "sharedTiers": []any{"ARCHIVE"}, "adoption": "Never"},
		},
	}
}

func selectorCases() map[string]tenancyCase {
	sel := selector
	return map[string]tenancyCase{
		"SelectorUnknownOperator": {
			reason: "A selector operator must be one Kubernetes knows.", cluster: true,
			spec: map[string]any{"namespaceSelector": sel(map[string]any{"key": "team", "operator": "Equals", "values": []any{"a"}})},
			want: "operator must be In, NotIn, Exists or DoesNotExist",
		},
		"SelectorInWithoutValues": {
			reason: "In needs values, or it would select nothing and look like a typo.", cluster: true,
			spec: map[string]any{"namespaceSelector": sel(map[string]any{"key": "team", "operator": "In"})},
			want: "values must be non-empty for In and NotIn",
		},
		"SelectorExistsWithValues": {
			reason: "Exists takes no values.", cluster: true,
			spec: map[string]any{"namespaceSelector": sel(map[string]any{"key": "team", "operator": "Exists", "values": []any{"a"}})},
			want: "values must be non-empty for In and NotIn, and empty for Exists",
		},
		"SelectorValid": {
			reason: "Labels and expressions are accepted.", cluster: true,
			spec: map[string]any{"namespaceSelector": map[string]any{
				"matchLabels":      map[string]any{"rustfs.example.com/tenant": "true"},
				"matchExpressions": []any{map[string]any{"key": "team", "operator": "In", "values": []any{"a", "b"}}},
			}},
		},
		"SelectorOnNamespacedKind": {
			reason: "A namespaced ProviderConfig serves only its own namespace and has no selector.",
			spec:   map[string]any{"namespaceSelector": map[string]any{"matchLabels": map[string]any{"a": "b"}}},
			want:   `unknown field "spec.namespaceSelector"`,
		},
	}
}

// createConfig creates a ProviderConfig (in default) or a
// ClusterProviderConfig named name with spec plus an endpoint and
// credentials, rejecting unknown fields.
func createConfig(t *testing.T, name string, cluster bool, spec map[string]any) error {
	t.Helper()
	spec["endpoint"] = "https://rustfs.storage.svc:9000"
	secretRef := map[string]any{"name": "rustfs-admin"}
	gvk := v1alpha1.ProviderConfigGroupVersionKind
	if cluster {
		secretRef["namespace"] = "crossplane-system"
		gvk = v1alpha1.ClusterProviderConfigGroupVersionKind
	}
	spec["credentials"] = map[string]any{"source": "Secret", "secretRef": secretRef}
	pc := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	pc.SetGroupVersionKind(gvk)
	pc.SetName("tenancy-" + name)
	if !cluster {
		pc.SetNamespace("default")
	}
	// Strict: the API server rejects unknown fields instead of dropping them.
	return env.Client.Create(context.Background(), pc, client.FieldValidation(metav1.FieldValidationStrict))
}

// Both kinds default to the v0.1 behaviour: any name, automatic adoption,
// every namespace.
func TestTenancySettingsDefaults(t *testing.T) {
	testenv.Skip(t)
	pc := &v1alpha1.ProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "tenancy-defaults"},
		Spec: v1alpha1.ProviderConfigSpec{
			EndpointSettings: v1alpha1.EndpointSettings{Endpoint: "http://127.0.0.1:9000"},
			Credentials: v1alpha1.LocalCredentials{Source: xpv2.CredentialsSourceSecret,
				SecretRef: xpv2.LocalSecretReference{Name: "rustfs-admin"}},
		},
	}
	cpc := &v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "tenancy-defaults"},
		Spec: v1alpha1.ClusterProviderConfigSpec{
			EndpointSettings: v1alpha1.EndpointSettings{Endpoint: "http://127.0.0.1:9000"},
			Credentials: v1alpha1.ClusterCredentials{Source: xpv2.CredentialsSourceSecret,
				SecretRef: xpv2.SecretReference{Namespace: "crossplane-system", Name: "rustfs-admin"}},
		},
	}
	for _, o := range []client.Object{pc, cpc} {
		if err := env.Client.Create(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	want := v1alpha1.TenancySettings{NameScope: v1alpha1.NameScopeCluster, Adoption: v1alpha1.AdoptionAutomatic}
	if diff := cmp.Diff(want, pc.Spec.TenancySettings); diff != "" {
		t.Errorf("ProviderConfig defaults: -want +got:\n%s", diff)
	}
	if diff := cmp.Diff(want, cpc.Spec.TenancySettings); diff != "" {
		t.Errorf("ClusterProviderConfig defaults: -want +got:\n%s", diff)
	}
	if cpc.Spec.NamespaceSelector != nil {
		t.Errorf("ClusterProviderConfig namespaceSelector: want absent, got %v", cpc.Spec.NamespaceSelector)
	}
}
