package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// inputs writes a fake binary and CA bundle into a new directory, with the
// given file mode and modification time, and returns a spec for them.
func inputs(t *testing.T, binary string, mode os.FileMode, mtime time.Time) imageSpec {
	t.Helper()
	dir := t.TempDir()
	s := imageSpec{
		Binary: filepath.Join(dir, "provider"), Name: "provider", CACerts: filepath.Join(dir, "ca.crt"),
		OS: "linux", Arch: "amd64", Epoch: 1700000000, Ports: []string{"8080", "8081"},
		Labels: map[string]string{"org.opencontainers.image.version": "v0.2.0"},
	}
	for f, data := range map[string]string{s.Binary: binary, s.CACerts: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"} {
		if err := os.WriteFile(f, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func digest(t *testing.T, s imageSpec) v1.Hash {
	t.Helper()
	img, err := buildImage(s)
	if err != nil {
		t.Fatalf("buildImage: %v", err)
	}
	d, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The same inputs give the same digest whatever the host says about them
// (paths, modes, times); a change of binary, epoch, architecture or label
// gives another.
func TestBuildImageReproducible(t *testing.T) {
	now, old := time.Now(), time.Unix(1000, 0)
	reference := digest(t, inputs(t, "binary v1", 0o755, now))
	cases := map[string]struct {
		spec func() imageSpec
		same bool
	}{
		"OtherDirectoryModeAndTime": {spec: func() imageSpec { return inputs(t, "binary v1", 0o600, old) }, same: true},
		"PortsInOtherOrder": {spec: func() imageSpec {
			s := inputs(t, "binary v1", 0o755, now)
			s.Ports = []string{"8081", "8080"}
			return s
		}, same: true},
		"OtherBinary": {spec: func() imageSpec { return inputs(t, "binary v2", 0o755, now) }},
		"OtherEpoch": {spec: func() imageSpec {
			s := inputs(t, "binary v1", 0o755, now)
			s.Epoch++
			return s
		}},
		"OtherArchitecture": {spec: func() imageSpec {
			s := inputs(t, "binary v1", 0o755, now)
			s.Arch = "arm64"
			return s
		}},
		"OtherVersionLabel": {spec: func() imageSpec {
			s := inputs(t, "binary v1", 0o755, now)
			s.Labels = map[string]string{"org.opencontainers.image.version": "v0.2.1"}
			return s
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := digest(t, tc.spec())
			if (got == reference) != tc.same {
				t.Errorf("digest %s, reference %s: want same=%t", got, reference, tc.same)
			}
		})
	}
}

// The image runs the binary as its entrypoint, as the nonroot user, for
// the platform of the spec, and every file has a fixed owner, mode and time.
func TestBuildImageContents(t *testing.T) {
	s := inputs(t, "binary", 0o700, time.Now())
	img, err := buildImage(s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := inspect(img)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Config
	got := []string{c.OS, c.Architecture, c.Config.User, strings.Join(c.Config.Entrypoint, " "), c.Config.WorkingDir, c.Created.UTC().Format(time.RFC3339)}
	want := []string{"linux", "amd64", "65532:65532", "/usr/local/bin/provider", "/", "2023-11-14T22:13:20Z"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("config (os, arch, user, entrypoint, workdir, created): -want +got:\n%s", diff)
	}
	if diff := cmp.Diff(map[string]struct{}{"8080/tcp": {}, "8081/tcp": {}}, c.Config.ExposedPorts); diff != "" {
		t.Errorf("exposed ports: -want +got:\n%s", diff)
	}
	var files []string
	for _, l := range r.Layers {
		for _, f := range l.Files {
			files = append(files, fileLine(f, s.Epoch))
		}
	}
	if diff := cmp.Diff(wantFiles, files); diff != "" {
		t.Errorf("files (name type mode uid:gid, * where the time or owner name is not fixed): -want +got:\n%s", diff)
	}
}

// wantFiles are the files of every image, base layer first.
var wantFiles = []string{
	"etc/ dir 755 0:0", "etc/group file 644 0:0", "etc/nsswitch.conf file 644 0:0", "etc/passwd file 644 0:0",
	"etc/ssl/ dir 755 0:0", "etc/ssl/certs/ dir 755 0:0", "etc/ssl/certs/ca-certificates.crt file 644 0:0",
	"home/ dir 755 0:0", "home/nonroot/ dir 700 65532:65532", "tmp/ dir 1777 0:0",
	"usr/ dir 755 0:0", "usr/local/ dir 755 0:0", "usr/local/bin/ dir 755 0:0",
	"usr/local/bin/provider file 755 0:0",
}

func fileLine(f fileReport, epoch int64) string {
	s := f.Name + " " + f.Type + " " + strconv.FormatInt(f.Mode, 8) + " " + strconv.Itoa(f.UID) + ":" + strconv.Itoa(f.GID)
	if f.ModTime != epoch || f.Uname != "" || f.Gname != "" || f.PAX {
		s += " *"
	}
	return s
}

func TestBaseEntriesNeedPEM(t *testing.T) {
	f := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(f, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := baseEntries(f); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("baseEntries of a file without PEM: want an error naming it, got %v", err)
	}
}
