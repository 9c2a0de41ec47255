package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// crossplaneCRDs returns Crossplane v2.3.4's XRD and Composition CRDs from
// the module cache (downloading the module if needed).
func crossplaneCRDs(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/crossplane/crossplane/v2@v2.3.4").Output()
	if err != nil {
		t.Fatalf("cannot download github.com/crossplane/crossplane/v2@v2.3.4 for its CRDs: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		t.Fatalf("cannot locate github.com/crossplane/crossplane/v2@v2.3.4: %v", err)
	}
	dir := filepath.Join(m.Dir, "cluster", "crds")
	return []string{
		filepath.Join(dir, "apiextensions.crossplane.io_compositeresourcedefinitions.yaml"),
		filepath.Join(dir, "apiextensions.crossplane.io_compositions.yaml"),
	}
}

// readObject reads the single YAML document in file.
func readObject(t *testing.T, file string) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(b, &u.Object); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return u
}

// Crossplane's own CRDs, with their CEL rules, accept both XRDs and both
// Compositions.
func TestCrossplaneAcceptsThePackage(t *testing.T) {
	testenv.Skip(t)
	if _, err := envtest.InstallCRDs(env.Config, envtest.CRDInstallOptions{Paths: crossplaneCRDs(t), ErrorIfPathMissing: true}); err != nil {
		t.Fatalf("cannot install Crossplane's CRDs: %v", err)
	}
	for _, f := range []string{"xrd-tenant.yaml", "xrd-xtenant.yaml", "composition-tenant.yaml", "composition-xtenant.yaml"} {
		o := readObject(t, filepath.Join(configurationDir, f))
		if err := env.Client.Create(context.Background(), o); err != nil {
			t.Errorf("%s: Crossplane v2.3.4's CRDs reject it: %v", f, err)
		}
	}
}

// crdFor is the CRD that serves a kind of the Tenant XRD's schema, as
// Crossplane would generate it (without the fields Crossplane adds).
func crdFor(t *testing.T, kind string, scope apiextensionsv1.ResourceScope) *apiextensionsv1.CustomResourceDefinition {
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
	b, err := os.ReadFile(filepath.Join(configurationDir, "xrd-tenant.yaml"))
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
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: kind, ListKind: kind + "List", Plural: plural, Singular: strings.ToLower(kind)},
			Scope: scope,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: version, Served: true, Storage: true,
				Schema:       &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &s},
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
			}},
		},
	}
}

// installTenantCRDs serves Tenant and TenantClaim with the XRD's schema
// and creates the examples' namespace.
func installTenantCRDs(t *testing.T) {
	t.Helper()
	crds := []*apiextensionsv1.CustomResourceDefinition{
		crdFor(t, "Tenant", apiextensionsv1.NamespaceScoped),
		crdFor(t, "TenantClaim", apiextensionsv1.NamespaceScoped),
		crdFor(t, "XTenant", apiextensionsv1.ClusterScoped),
	}
	if _, err := envtest.InstallCRDs(env.Config, envtest.CRDInstallOptions{CRDs: crds}); err != nil {
		t.Fatalf("the API server rejects the Tenant schema (structure, CEL or its cost): %v", err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}
	if err := env.Client.Create(context.Background(), ns); err != nil && !strings.Contains(err.Error(), "already exists") {
		t.Fatal(err)
	}
}
