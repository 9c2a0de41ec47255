package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	xpextv1 "github.com/crossplane/crossplane/apis/v2/apiextensions/v1"
	xpextv2 "github.com/crossplane/crossplane/apis/v2/apiextensions/v2"
	pkgmetav1 "github.com/crossplane/crossplane/apis/v2/pkg/meta/v1"
	pkgmetav1beta1 "github.com/crossplane/crossplane/apis/v2/pkg/meta/v1beta1"
	pkgv1 "github.com/crossplane/crossplane/apis/v2/pkg/v1"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Paths of the packages and examples, from the repository root.
var (
	configurationDir = filepath.Join(testenv.Root(), "package", "configuration")
	functionDir      = filepath.Join(testenv.Root(), "package", "function")
	examplesDir      = filepath.Join(testenv.Root(), "examples", "tenant")
)

// decodeStrict reads the single YAML document in file into obj, rejecting
// fields obj's type does not know.
func decodeStrict(t *testing.T, file string, obj any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(b, obj); err != nil {
		t.Fatalf("%s does not decode strictly into %T: %v", file, obj, err)
	}
}

func TestXRDsAreGenerated(t *testing.T) {
	files, err := Generate(filepath.Join(testenv.Root(), "internal", "function", "tenant"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(configurationDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			t.Errorf("%s is out of date: run go generate -tags generate ./internal/function/...\n-generated +committed:\n%s",
				name, cmp.Diff(string(want), string(got)))
		}
	}
}

// The package files decode into Crossplane v2.3.4's own types and agree
// with each other: XRD names, composite type references and the function
// name Crossplane gives a dependency.
func TestPackagesAreConsistent(t *testing.T) {
	var (
		xrd       xpextv2.CompositeResourceDefinition
		legacy    xpextv1.CompositeResourceDefinition
		comps     [2]xpextv1.Composition
		conf      pkgmetav1.Configuration
		fn        pkgmetav1beta1.Function
		renderFns pkgv1.Function
	)
	decodeStrict(t, filepath.Join(configurationDir, "xrd-tenant.yaml"), &xrd)
	decodeStrict(t, filepath.Join(configurationDir, "xrd-xtenant.yaml"), &legacy)
	decodeStrict(t, filepath.Join(configurationDir, "composition-tenant.yaml"), &comps[0])
	decodeStrict(t, filepath.Join(configurationDir, "composition-xtenant.yaml"), &comps[1])
	decodeStrict(t, filepath.Join(configurationDir, "crossplane.yaml"), &conf)
	decodeStrict(t, filepath.Join(functionDir, "crossplane.yaml"), &fn)
	decodeStrict(t, filepath.Join(examplesDir, "functions.yaml"), &renderFns)

	fnName := dependencyName(t, conf, "Function")
	got := map[string]any{
		"tenant.name":        xrd.GetName(),
		"tenant.scope":       string(xrd.Spec.Scope),
		"tenant.kind":        xrd.Spec.Names.Kind,
		"xtenant.name":       legacy.GetName(),
		"xtenant.scope":      string(*legacy.Spec.Scope),
		"xtenant.claim":      legacy.Spec.ClaimNames.Kind,
		"compositions.types": []string{comps[0].Spec.CompositeTypeRef.Kind, comps[1].Spec.CompositeTypeRef.Kind},
		"compositions.names": []string{comps[0].GetName(), comps[1].GetName()},
		"compositions.modes": []string{string(comps[0].Spec.Mode), string(comps[1].Spec.Mode)},
		"functionRefs":       []string{comps[0].Spec.Pipeline[0].FunctionRef.Name, comps[1].Spec.Pipeline[0].FunctionRef.Name, renderFns.GetName()},
		"provider":           dependencyName(t, conf, "Provider"),
		"function.package":   fn.GetName(),
	}
	want := map[string]any{
		"tenant.name":        TenantXRD,
		"tenant.scope":       "Namespaced",
		"tenant.kind":        "Tenant",
		"xtenant.name":       XTenantXRD,
		"xtenant.scope":      "LegacyCluster",
		"xtenant.claim":      "TenantClaim",
		"compositions.types": []string{"Tenant", "XTenant"},
		"compositions.names": []string{TenantXRD, XTenantXRD},
		"compositions.modes": []string{"Pipeline", "Pipeline"},
		"functionRefs":       []string{fnName, fnName, fnName},
		"provider":           "crossplane-contrib-provider-rustfs",
		"function.package":   "function-rustfs-tenant",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("package files: -want +got:\n%s", diff)
	}
}

// dependencyName is the name Crossplane gives the installed dependency of
// kind: its package repository as a DNS label.
func dependencyName(t *testing.T, c pkgmetav1.Configuration, kind string) string {
	t.Helper()
	for _, d := range c.Spec.DependsOn {
		if d.Kind != nil && *d.Kind == kind && d.Package != nil {
			repo := strings.TrimPrefix(*d.Package, "xpkg.crossplane.io/")
			return strings.ReplaceAll(repo, "/", "-")
		}
	}
	t.Fatalf("the Configuration has no %s dependency", kind)
	return ""
}

// schemaAt walks an OpenAPI schema along property names; "[]" steps into
// array items.
func schemaAt(t *testing.T, s map[string]any, path ...string) map[string]any {
	t.Helper()
	for _, p := range path {
		var next any
		if p == "[]" {
			next = s["items"]
		} else {
			props, _ := s["properties"].(map[string]any)
			next = props[p]
		}
		m, ok := next.(map[string]any)
		if !ok {
			t.Fatalf("schema has no %v", path)
		}
		s = m
	}
	return s
}

// The Tenant's tier names follow the Tier CRD's rules with the same
// messages, except immutability, which a list keyed by name makes moot.
func TestTierNameRulesMatchTheTierCRD(t *testing.T) {
	var tier map[string]any
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "package", "provider", "crds", "rustfs.m.crossplane.io_tiers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &tier); err != nil {
		t.Fatal(err)
	}
	crd := tier["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)
	var want []any
	for _, r := range schemaAt(t, crd, "spec", "forProvider", "name")["x-kubernetes-validations"].([]any) {
		if !strings.Contains(r.(map[string]any)["rule"].(string), "oldSelf") {
			want = append(want, r)
		}
	}
	s, err := openAPISchema(filepath.Join(testenv.Root(), "internal", "function", "tenant"))
	if err != nil {
		t.Fatal(err)
	}
	got := schemaAt(t, s, "spec", "tiers", "[]", "name")["x-kubernetes-validations"]
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Tenant tier name rules: -Tier CRD +Tenant XRD:\n%s", diff)
	}
}
