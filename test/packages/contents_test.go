package packages

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// defaultRegistry is where the packages are published unless make is told
// otherwise; the committed Compositions name the function as Crossplane
// names it when it installs it from there.
const defaultRegistry = "xpkg.crossplane.io/crossplane-contrib"

// The provider package holds the committed metadata and exactly the CRDs
// of package/provider/crds, the provider's examples, and a runtime image that runs
// the provider binary, which starts.
func TestProviderPackage(t *testing.T) {
	skip(t)
	for _, file := range providerPkg.files(t, env.dir) {
		objs := readPackage(t, file)
		expectSame(t, "metadata", repoObjects(t, "package/provider/crossplane.yaml"), objs[:1])
		expectSame(t, "CRDs", repoObjects(t, "package/provider/crds/*.yaml"), objs[1:])
		r := inspect(t, file)
		expectAnnotations(t, r, "base", "upbound")
		expectRuntime(t, file, r, providerPkg, "Crossplane provider for RustFS", "--poll", "--max-reconcile-rate")
	}
}

// The function package holds the committed metadata, no objects, and a
// runtime image that runs the function binary, which starts.
func TestFunctionPackage(t *testing.T) {
	skip(t)
	for _, file := range functionPkg.files(t, env.dir) {
		objs := readPackage(t, file)
		expectSame(t, "metadata", repoObjects(t, "package/function/crossplane.yaml"), objs)
		r := inspect(t, file)
		expectAnnotations(t, r, "base")
		expectRuntime(t, file, r, functionPkg, "composition function", "--tls-server-certs-dir", "insecure")
	}
}

// The Configuration package holds the committed metadata, with its
// dependencies on the provider and the function set to exactly the version
// just built from the registry they were built for, the committed XRDs and
// Compositions, its examples, and no runtime.
func TestConfigurationPackage(t *testing.T) {
	skip(t)
	files := configurationPkg.files(t, env.dir)
	if len(files) != 1 {
		t.Fatalf("want one Configuration package, got %v", files)
	}
	objs := readPackage(t, files[0])
	want := repoObjects(t, "package/configuration/crossplane.yaml")
	if err := unstructured.SetNestedSlice(want[0].Object, []any{
		dependency("Provider", providerPkg.source()), dependency("Function", functionPkg.source()),
	}, "spec", "dependsOn"); err != nil {
		t.Fatal(err)
	}
	expectSame(t, "metadata", want, objs[:1])
	if env.registry == defaultRegistry {
		expectSame(t, "XRDs and Compositions", repoObjects(t, "package/configuration/[cx]*-*.yaml"), objs[1:])
	}
	r := inspect(t, files[0])
	expectAnnotations(t, r, "base", "upbound")
	if len(r.Layers) != 2 || len(r.Config.Config.Entrypoint) != 0 {
		t.Errorf("a Configuration has no runtime: want 2 layers and no entrypoint, got %d layers, entrypoint %v", len(r.Layers), r.Config.Config.Entrypoint)
	}
}

func dependency(kind, source string) any {
	return map[string]any{"apiVersion": "pkg.crossplane.io/v1", "kind": kind, "package": source, "version": env.version}
}

// expectSame compares the kind, name, annotations and spec of objects in
// order: what Crossplane reads back from a package against the files it
// was built from.
func expectSame(t *testing.T, what string, want, got []*unstructured.Unstructured) {
	t.Helper()
	summary := func(objs []*unstructured.Unstructured) []map[string]any {
		var out []map[string]any
		for _, o := range objs {
			out = append(out, map[string]any{"apiVersion": o.GetAPIVersion(), "kind": o.GetKind(), "name": o.GetName(),
				"annotations": o.GetAnnotations(), "spec": o.Object["spec"]})
		}
		return out
	}
	sortByName := func(objs []*unstructured.Unstructured) []*unstructured.Unstructured {
		s := slices.Clone(objs)
		slices.SortFunc(s, func(a, b *unstructured.Unstructured) int {
			return strings.Compare(a.GetKind()+a.GetName(), b.GetKind()+b.GetName())
		})
		return s
	}
	if diff := cmp.Diff(summary(sortByName(want)), summary(sortByName(got))); diff != "" {
		t.Errorf("%s: -repository +package:\n%s", what, diff)
	}
}

// expectAnnotations checks which layers crossplane xpkg build marked: base
// (package.yaml) and upbound (the examples).
func expectAnnotations(t *testing.T, r report, want ...string) {
	t.Helper()
	if diff := cmp.Diff(want, r.annotations()); diff != "" {
		t.Errorf("annotated layers: -want +got:\n%s", diff)
	}
}

// expectRuntime checks the runtime image embedded in the package file:
// the platform its name says, the binary as entrypoint, the nonroot user,
// files with fixed owners and times, the CA bundle make xpkg installs, and
// a binary that prints help naming each of words and the package version.
func expectRuntime(t *testing.T, file string, r report, p pkg, words ...string) {
	t.Helper()
	goos, goarch := platform(file)
	c := r.Config
	got := []string{c.OS, c.Architecture, strings.Join(c.Config.Entrypoint, " "), c.Config.User}
	want := []string{goos, goarch, "/usr/local/bin/" + p.runtime, "65532:65532"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: image os, architecture, entrypoint, user: -want +got:\n%s", file, diff)
	}
	expectFixedFiles(t, r)
	expectUsers(t, file)
	expectCABundle(t, file)
	if goos != runtime.GOOS || goarch != runtime.GOARCH {
		t.Logf("%s is for %s/%s: its binary is not run on %s/%s", file, goos, goarch, runtime.GOOS, runtime.GOARCH)
		return
	}
	bin := extract(t, file, "usr/local/bin/"+p.runtime)
	help := run2(t, bin, "--help")
	for _, w := range words {
		if !strings.Contains(help, w) {
			t.Errorf("%s --help does not mention %q:\n%s", p.runtime, w, help)
		}
	}
	if v := strings.TrimSpace(run2(t, bin, "--version")); v != env.version {
		t.Errorf("%s --version: want %s, got %q", p.runtime, env.version, v)
	}
}

// run2 runs a binary and returns both outputs (kingpin writes help and
// version to standard error); it fails the test unless the binary exits 0.
func run2(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// expectFixedFiles checks that every file of the runtime layers has a
// numeric owner only, one shared modification time and no PAX records.
func expectFixedFiles(t *testing.T, r report) {
	t.Helper()
	times := map[int64]bool{}
	n := 0
	for _, l := range r.Layers {
		if l.Annotation != "" {
			continue
		}
		for _, f := range l.Files {
			n++
			times[f.ModTime] = true
			if f.Uname != "" || f.Gname != "" || f.PAX || (f.UID != 0 && f.UID != 65532) || f.GID != f.UID {
				t.Errorf("file %s: owner %d:%d (%q:%q), PAX %t: want root or 65532 by number only, no PAX records", f.Name, f.UID, f.GID, f.Uname, f.Gname, f.PAX)
			}
		}
	}
	if n == 0 || len(times) != 1 {
		t.Errorf("runtime layers: %d files with %d distinct modification times; want files, all with one time", n, len(times))
	}
}

// expectUsers checks /etc/passwd and /etc/group for the nonroot user.
func expectUsers(t *testing.T, file string) {
	t.Helper()
	for path, want := range map[string]string{
		"etc/passwd": "nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n",
		"etc/group":  "nonroot:x:65532:\n",
	} {
		b, err := os.ReadFile(extract(t, file, path))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s of %s lacks %q:\n%s", path, file, want, b)
		}
	}
}

// expectCABundle checks that the image holds the CA bundle make xpkg
// installs by default: Debian's ca-certificates.
func expectCABundle(t *testing.T, file string) {
	t.Helper()
	const bundle = "/etc/ssl/certs/ca-certificates.crt"
	got, err := os.ReadFile(extract(t, file, strings.TrimPrefix(bundle, "/")))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(bundle)
	if err != nil {
		t.Fatalf("the host has no CA bundle to compare with: %v", err)
	}
	if !bytes.Equal(got, want) || !bytes.Contains(got, []byte("-----BEGIN CERTIFICATE-----")) {
		t.Errorf("%s of %s (%d bytes) is not the host's %s (%d bytes)", bundle, file, len(got), bundle, len(want))
	}
}
