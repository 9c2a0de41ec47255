package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

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
