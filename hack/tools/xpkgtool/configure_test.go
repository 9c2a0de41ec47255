package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const testMeta = `# The Configuration.
apiVersion: meta.pkg.crossplane.io/v1
kind: Configuration
metadata:
  name: configuration-rustfs-tenant
spec:
  dependsOn:
  - apiVersion: pkg.crossplane.io/v1
    kind: Provider
    package: xpkg.crossplane.io/crossplane-contrib/provider-rustfs
    version: ">=v0.1.0"
  - apiVersion: pkg.crossplane.io/v1
    kind: Function
    package: xpkg.crossplane.io/crossplane-contrib/function-rustfs-tenant
    version: ">=v0.1.0"
  - apiVersion: pkg.crossplane.io/v1
    kind: Function
    package: xpkg.crossplane.io/crossplane-contrib/function-auto-ready
    version: ">=v0.2.0"
`

const testComposition = `# A Composition.
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: tenants.storage.rustfs.crossplane.io
spec:
  mode: Pipeline
  pipeline:
  - step: render-tenant
    functionRef:
      name: crossplane-contrib-function-rustfs-tenant
  - step: ready
    functionRef:
      name: crossplane-contrib-function-auto-ready
`

// stagedConfiguration writes a Configuration package and returns its
// directory.
func stagedConfiguration(t *testing.T, meta string) string {
	t.Helper()
	dir := t.TempDir()
	for f, s := range map[string]string{"crossplane.yaml": meta, "composition.yaml": testComposition} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Each dependency on a package of this repository comes to name the
// registry and the exact version built; other dependencies stay; a
// functionRef to the repository's function follows the name Crossplane
// gives it when it installs it from the new registry.
func TestConfigure(t *testing.T) {
	cases := map[string]struct {
		registry string
		want     []string // package@version of each dependency, then each functionRef
	}{
		"DefaultRegistry": {registry: "xpkg.crossplane.io/crossplane-contrib", want: []string{
			"xpkg.crossplane.io/crossplane-contrib/provider-rustfs@v0.2.0",
			"xpkg.crossplane.io/crossplane-contrib/function-rustfs-tenant@v0.2.0",
			"xpkg.crossplane.io/crossplane-contrib/function-auto-ready@>=v0.2.0",
			"crossplane-contrib-function-rustfs-tenant", "crossplane-contrib-function-auto-ready",
		}},
		"OtherOrganisation": {registry: "ghcr.io/acme", want: []string{
			"ghcr.io/acme/provider-rustfs@v0.2.0",
			"ghcr.io/acme/function-rustfs-tenant@v0.2.0",
			"xpkg.crossplane.io/crossplane-contrib/function-auto-ready@>=v0.2.0",
			"acme-function-rustfs-tenant", "crossplane-contrib-function-auto-ready",
		}},
		"RegistryWithPortAndNoOrganisation": {registry: "127.0.0.1:5000", want: []string{
			"127.0.0.1:5000/provider-rustfs@v0.2.0",
			"127.0.0.1:5000/function-rustfs-tenant@v0.2.0",
			"xpkg.crossplane.io/crossplane-contrib/function-auto-ready@>=v0.2.0",
			"function-rustfs-tenant", "crossplane-contrib-function-auto-ready",
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := stagedConfiguration(t, testMeta)
			if err := configure(dir, tc.registry, "v0.2.0"); err != nil {
				t.Fatalf("configure: %v", err)
			}
			if diff := cmp.Diff(tc.want, staged(t, dir)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "crossplane.yaml")); !strings.HasPrefix(string(b), "# The Configuration.") {
				t.Errorf("the rewrite lost the head comment:\n%s", b)
			}
		})
	}
}

// staged reads back the dependencies and functionRefs of a staged package.
func staged(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	if err := rewrite(filepath.Join(dir, "crossplane.yaml"), func(doc *yamlNode) (bool, error) {
		for _, d := range value(value(body(doc), "spec"), "dependsOn").Content {
			out = append(out, value(d, "package").Value+"@"+value(d, "version").Value)
		}
		return false, nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := rewrite(filepath.Join(dir, "composition.yaml"), func(doc *yamlNode) (bool, error) {
		for _, s := range value(value(body(doc), "spec"), "pipeline").Content {
			out = append(out, value(value(s, "functionRef"), "name").Value)
		}
		return false, nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A Configuration without a dependency on one of this repository's
// packages is an error that names the package.
func TestConfigureMissingDependency(t *testing.T) {
	meta := strings.Replace(testMeta, "function-rustfs-tenant", "function-other", 1)
	err := configure(stagedConfiguration(t, meta), "ghcr.io/acme", "v0.2.0")
	if err == nil || !strings.Contains(err.Error(), "function-rustfs-tenant") {
		t.Errorf("configure: want an error naming function-rustfs-tenant, got %v", err)
	}
}

func TestDNSLabel(t *testing.T) {
	cases := map[string]string{
		"crossplane-contrib/function-rustfs-tenant": "crossplane-contrib-function-rustfs-tenant",
		"Acme.Corp/fn":                 "cme-orp-fn",
		"/leading/and/":                "leading-and",
		strings.Repeat("a", 70):        strings.Repeat("a", 63),
		strings.Repeat("a", 62) + "/b": strings.Repeat("a", 62),
	}
	for in, want := range cases {
		if got := dnsLabel(in); got != want {
			t.Errorf("dnsLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

const testInstall = `# Install manifests.
apiVersion: pkg.crossplane.io/v1beta1
kind: DeploymentRuntimeConfig
metadata:
  name: provider-rustfs
---
apiVersion: pkg.crossplane.io/v1
kind: Provider
metadata:
  name: provider-rustfs
spec:
  package: xpkg.crossplane.io/crossplane-contrib/provider-rustfs:v0.2.0
---
apiVersion: pkg.crossplane.io/v1
kind: Function
metadata:
  name: crossplane-contrib-function-rustfs-tenant
spec:
  package: xpkg.crossplane.io/crossplane-contrib/function-rustfs-tenant:v0.2.0
---
apiVersion: pkg.crossplane.io/v1
kind: Function
metadata:
  name: function-auto-ready
spec:
  package: xpkg.crossplane.io/crossplane-contrib/function-auto-ready:v0.2.0
---
apiVersion: pkg.crossplane.io/v1
kind: Configuration
metadata:
  name: configuration-rustfs-tenant
spec:
  package: xpkg.crossplane.io/crossplane-contrib/configuration-rustfs-tenant:v0.2.0
`

// Install manifests come to reference the packages just built, and the
// Function takes the name the Compositions of that build reference; other
// packages stay.
func TestConfigureInstallManifests(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "install.yaml")
	if err := os.WriteFile(f, []byte(testInstall), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := configure(dir, "ghcr.io/acme", "v0.3.0"); err != nil {
		t.Fatalf("configure: %v", err)
	}
	var got []string
	if err := rewrite(f, func(doc *yamlNode) (bool, error) {
		root := body(doc)
		line := value(root, "kind").Value + " " + value(value(root, "metadata"), "name").Value
		if p := value(value(root, "spec"), "package"); p != nil {
			line += " " + p.Value
		}
		got = append(got, line)
		return false, nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"DeploymentRuntimeConfig provider-rustfs",
		"Provider provider-rustfs ghcr.io/acme/provider-rustfs:v0.3.0",
		"Function acme-function-rustfs-tenant ghcr.io/acme/function-rustfs-tenant:v0.3.0",
		"Function function-auto-ready xpkg.crossplane.io/crossplane-contrib/function-auto-ready:v0.2.0",
		"Configuration configuration-rustfs-tenant ghcr.io/acme/configuration-rustfs-tenant:v0.3.0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
