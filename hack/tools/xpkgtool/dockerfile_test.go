package main

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
)

// repoRoot is the repository's root, from this package's directory.
const repoRoot = "../../.."

// The Dockerfiles under cluster/images are those make generate writes from
// the settings make xpkg builds its images with, one per runtime image and
// no other: a Dockerfile edited by hand, or a setting changed (a port, a
// label, a file, the Go version of go.mod) without make generate, fails.
func TestDockerfilesAreGenerated(t *testing.T) {
	src, err := readBuildSource(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range runtimeImages {
		want = append(want, r.Package)
		f := filepath.Join(repoRoot, dockerfileDir, r.Package, "Dockerfile")
		got, err := os.ReadFile(f)
		if err != nil {
			t.Errorf("%s: %v; run make generate", f, err)
			continue
		}
		if diff := cmp.Diff(renderDockerfile(r, src), string(got)); diff != "" {
			t.Errorf("%s is not what make generate writes; run make generate (-generated +committed):\n%s", f, diff)
		}
	}
	dirs, err := os.ReadDir(filepath.Join(repoRoot, dockerfileDir))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range dirs {
		got = append(got, d.Name())
	}
	if diff := cmp.Diff(slices.Sorted(slices.Values(want)), got); diff != "" {
		t.Errorf("%s holds a directory per runtime image and no other: -want +got:\n%s", dockerfileDir, diff)
	}
}

// testArgs are the build arguments the committed Dockerfiles are read
// with: a version, and BuildKit's platform arguments for a cross build.
var testArgs = map[string]string{
	"VERSION": "v1.2.3", "TARGETOS": "linux", "TARGETARCH": "arm64", "BUILDPLATFORM": "linux/amd64",
}

// Each committed Dockerfile builds the image make xpkg builds for the same
// version and platform: no base image (scratch), the same config (user,
// entrypoint, working directory, environment, exposed ports, labels), the
// same files with the same modes and owners, the same contents where they
// are fixed, the CA bundle from the path make xpkg reads it from, and a
// binary built as xpkgtool binary builds it.
func TestDockerfileBuildsTheXpkgImage(t *testing.T) {
	for _, r := range runtimeImages {
		t.Run(r.Package, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(repoRoot, dockerfileDir, r.Package, "Dockerfile"))
			if err != nil {
				t.Fatal(err)
			}
			docker, err := evaluate(string(b), testArgs)
			if err != nil {
				t.Fatalf("reading the Dockerfile: %v", err)
			}
			img := xpkgImage(t, r, testArgs["VERSION"], testArgs["TARGETOS"], testArgs["TARGETARCH"])
			expectSameBase(t, docker.cur, img)
			cf, err := img.ConfigFile()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(cf.Config, docker.cur.cfg); diff != "" {
				t.Errorf("config: -make xpkg +Dockerfile:\n%s", diff)
			}
			files, contents := imageFiles(t, img)
			if diff := cmp.Diff(files, docker.cur.fileLines()); diff != "" {
				t.Errorf("files (name type mode uid:gid, ? where the Dockerfile leaves it to the builder): -make xpkg +Dockerfile:\n%s", diff)
			}
			if diff := cmp.Diff(xpkgContents(r, contents), docker.cur.contents()); diff != "" {
				t.Errorf("file contents: -make xpkg +Dockerfile:\n%s", diff)
			}
		})
	}
}

// xpkgImage is the image make xpkg builds of r for one platform, from a
// stand-in binary and CA bundle.
func xpkgImage(t *testing.T, r runtimeImage, version, goos, goarch string) v1.Image {
	t.Helper()
	dir := t.TempDir()
	bin, ca := filepath.Join(dir, r.Cmd), filepath.Join(dir, "ca.crt")
	for f, data := range map[string]string{bin: "the binary", ca: testCA} {
		if err := os.WriteFile(f, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	img, err := buildImage(r.spec(version, goos, goarch, bin, ca))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

const testCA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"

// expectSameBase checks that the Dockerfile's image starts from scratch,
// as make xpkg's has no layer it did not write.
func expectSameBase(t *testing.T, s *stage, img v1.Image) {
	t.Helper()
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range cf.History {
		if !strings.HasPrefix(h.CreatedBy, "xpkgtool: ") {
			t.Errorf("make xpkg's image has a layer from a base image (%q): the Dockerfile's must too", h.CreatedBy)
		}
	}
	if s.base != "scratch" {
		t.Errorf("the Dockerfile's image is based on %q; make xpkg's has no base: want scratch", s.base)
	}
}

// imageFiles are the files of img as "name type mode uid:gid", sorted,
// and the contents of its regular files by absolute path.
func imageFiles(t *testing.T, img v1.Image) ([]string, map[string]string) {
	t.Helper()
	rc := mutate.Extract(img)
	defer func() { _ = rc.Close() }()
	tr := tar.NewReader(rc)
	var files []string
	contents := map[string]string{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		f := fileOf(h)
		files = append(files, strings.Join([]string{strings.TrimSuffix(f.Name, "/"), f.Type, strconv.FormatInt(f.Mode, 8), strconv.Itoa(f.UID) + ":" + strconv.Itoa(f.GID)}, " "))
		if h.Typeflag == tar.TypeReg {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			contents["/"+h.Name] = string(b)
		}
	}
	slices.Sort(files)
	return files, contents
}

// xpkgContents are the contents of make xpkg's files, where the CA
// bundle is described by the path make xpkg reads it from by default and
// the binary by the go build that xpkgtool binary runs.
func xpkgContents(r runtimeImage, contents map[string]string) map[string]string {
	out := map[string]string{}
	for p, c := range contents {
		switch p {
		case defaultCACerts:
			c = "copy of " + defaultCACerts + " from the base image"
		case "/" + path.Join(binDir, r.Cmd):
			env := append(slices.Clone(goBuildEnv), "GOOS="+testArgs["TARGETOS"], "GOARCH="+testArgs["TARGETARCH"])
			c = goBuildDescription(env, append([]string{"go"}, r.goBuildArgs(testArgs["VERSION"], "-")...))
		}
		out[p] = c
	}
	return out
}

// contents are the contents of the stage's regular files by path.
func (s *stage) contents() map[string]string {
	out := map[string]string{}
	for p, n := range s.fs {
		if !n.dir {
			out[p] = n.data
		}
	}
	return out
}
