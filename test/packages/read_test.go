package packages

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A report is the part of `xpkgtool inspect` a test reads.
type report struct {
	Digest string `json:"digest"`
	Config struct {
		OS           string `json:"os"`
		Architecture string `json:"architecture"`
		Config       struct {
			Entrypoint   []string            `json:"Entrypoint"`
			User         string              `json:"User"`
			ExposedPorts map[string]struct{} `json:"ExposedPorts"`
		} `json:"config"`
	} `json:"config"`
	Layers []struct {
		Annotation string `json:"annotation"`
		Files      []struct {
			Name    string `json:"name"`
			Type    string `json:"type"`
			Mode    int64  `json:"mode"`
			UID     int    `json:"uid"`
			GID     int    `json:"gid"`
			Uname   string `json:"uname"`
			Gname   string `json:"gname"`
			ModTime int64  `json:"modTime"`
			PAX     bool   `json:"pax"`
		} `json:"files"`
	} `json:"layers"`
}

// inspect reads the image or package tarball file with xpkgtool.
func inspect(t *testing.T, file string) report {
	t.Helper()
	var r report
	if err := json.Unmarshal(run(t, env.tool, "inspect", file), &r); err != nil {
		t.Fatalf("cannot read the report of %s: %v", file, err)
	}
	return r
}

// annotations are the xpkg annotations of the layers that have one.
func (r report) annotations() []string {
	var out []string
	for _, l := range r.Layers {
		if l.Annotation != "" {
			out = append(out, l.Annotation)
		}
	}
	return out
}

// extract copies the file path of the image in the package file to a
// temporary file and returns its name.
func extract(t *testing.T, file, path string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	run(t, env.tool, "extract", file, path, out)
	return out
}

// readPackage reads the package.yaml of a .xpkg with `crossplane xpkg
// extract`: the package's metadata first, then its objects.
func readPackage(t *testing.T, file string) []*unstructured.Unstructured {
	t.Helper()
	out := filepath.Join(t.TempDir(), "package.gz")
	run(t, env.cli, "xpkg", "extract", "--from-xpkg", file, "-o", out)
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("crossplane xpkg extract wrote no gzip stream: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, b, file)
}

// repoObjects reads the YAML documents of files in the repository, given
// relative to its root (globs allowed), in file order.
func repoObjects(t *testing.T, patterns ...string) []*unstructured.Unstructured {
	t.Helper()
	var out []*unstructured.Unstructured
	for _, p := range patterns {
		files, err := filepath.Glob(filepath.Join(testenv.Root(), p))
		if err != nil || len(files) == 0 {
			t.Fatalf("no file matches %s: %v", p, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, decode(t, b, f)...)
		}
	}
	return out
}

// decode reads the non-empty YAML documents of b.
func decode(t *testing.T, b []byte, source string) []*unstructured.Unstructured {
	t.Helper()
	var out []*unstructured.Unstructured
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for {
		u := &unstructured.Unstructured{}
		if err := d.Decode(&u.Object); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatalf("%s: %v", source, err)
		}
		if len(u.Object) > 0 {
			out = append(out, u)
		}
	}
}

// platform is the os_arch suffix of a runtime package's file name.
func platform(file string) (goos, goarch string) {
	base := strings.TrimSuffix(filepath.Base(file), ".xpkg")
	p := base[strings.LastIndex(base, "-")+1:]
	goos, goarch, _ = strings.Cut(p, "_")
	return goos, goarch
}
