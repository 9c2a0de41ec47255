package testenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

// The Tenant composite resources' API group and version.
const (
	TenantGroup   = "storage.rustfs.crossplane.io"
	TenantVersion = "v1alpha1"
)

// TenantXRD is the path of the Tenant XRD the Configuration package ships.
func TenantXRD() string {
	return filepath.Join(Root(), "package", "configuration", "xrd-tenant.yaml")
}

// InstallTenantCRDs serves Tenant, TenantClaim and XTenant with the Tenant
// XRD's schema, as Crossplane would (without the fields Crossplane adds),
// so that a test can check what the XRD admits without Crossplane. It
// creates the examples' namespace, team-a, too.
func (e *Env) InstallTenantCRDs(t testing.TB) {
	t.Helper()
	crds := []*apiextensionsv1.CustomResourceDefinition{
		tenantCRD(t, "Tenant", apiextensionsv1.NamespaceScoped),
		tenantCRD(t, "TenantClaim", apiextensionsv1.NamespaceScoped),
		tenantCRD(t, "XTenant", apiextensionsv1.ClusterScoped),
	}
	if _, err := envtest.InstallCRDs(e.Config, envtest.CRDInstallOptions{CRDs: crds}); err != nil {
		t.Fatalf("the API server rejects the Tenant schema (structure, CEL or its cost): %v", err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}
	if err := e.Client.Create(context.Background(), ns); err != nil && !kerrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}

// tenantCRD is the CRD that serves kind with the Tenant XRD's schema.
func tenantCRD(t testing.TB, kind string, scope apiextensionsv1.ResourceScope) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	var xrd struct {
		Spec struct {
			Versions []struct {
				Schema struct {
					OpenAPIV3Schema apiextensionsv1.JSONSchemaProps `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	b, err := os.ReadFile(TenantXRD())
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &xrd); err != nil {
		t.Fatal(err)
	}
	s := xrd.Spec.Versions[0].Schema.OpenAPIV3Schema
	s.Properties["apiVersion"] = apiextensionsv1.JSONSchemaProps{Type: "string"}
	s.Properties["kind"] = apiextensionsv1.JSONSchemaProps{Type: "string"}
	s.Properties["metadata"] = apiextensionsv1.JSONSchemaProps{Type: "object"}
	plural := strings.ToLower(kind) + "s"
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + TenantGroup},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: TenantGroup,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: kind, ListKind: kind + "List", Plural: plural, Singular: strings.ToLower(kind)},
			Scope: scope,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: TenantVersion, Served: true, Storage: true,
				Schema:       &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &s},
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
			}},
		},
	}
}
