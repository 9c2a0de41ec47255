package packages

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A second build from the same inputs (same commit, version, registry,
// platforms and CA bundle), into another directory and at another time,
// gives runtime images and packages with the same digests and the same
// bytes as the build under test.
func TestPackagesAreReproducible(t *testing.T) {
	skip(t)
	out := t.TempDir()
	_, stderr, err := runErr(filepath.Join(testenv.Root(), "hack", "xpkg.sh"), []string{
		"OUT=" + out, "VERSION=" + env.version, "REGISTRY=" + env.registry,
		"PLATFORMS=" + strings.Join(platforms(t), " "), "CROSSPLANE_CLI=" + env.cli,
	}, "build")
	if err != nil {
		t.Fatalf("second build: %v\n%s", err, stderr)
	}
	first := digests(t, env.dir, filepath.Join(env.dir, "..", "images"))
	second := digests(t, filepath.Join(out, "xpkg"), filepath.Join(out, "images"))
	if len(first) < 5 {
		t.Fatalf("want at least 3 packages and 2 images in the first build, got %v", first)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("file: image digest, file SHA-256: -first build +second build:\n%s", diff)
	}
}

// platforms are the os_arch platforms of the built provider packages.
func platforms(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, f := range providerPkg.files(t, env.dir) {
		goos, goarch := platform(f)
		out = append(out, goos+"_"+goarch)
	}
	return out
}

// digests maps the name of every package and image tarball in dirs to its
// image digest and the SHA-256 of the file.
func digests(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		sort.Strings(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			out[filepath.Base(f)] = inspect(t, f).Digest + " " + hex.EncodeToString(sum[:])
		}
	}
	return out
}
