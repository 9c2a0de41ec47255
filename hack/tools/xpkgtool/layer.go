package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// The user every image runs as, as in distroless's nonroot images.
const (
	nonrootID   = 65532
	nonrootName = "nonroot"
)

// caBundle is where every image holds its CA bundle, and defaultCACerts
// the bundle make xpkg puts there: Debian's ca-certificates, at the same
// path on the build host (and in the Go image the Dockerfiles build in).
const (
	caBundle       = "etc/ssl/certs/ca-certificates.crt"
	defaultCACerts = "/" + caBundle
)

// An entry is one file or directory of a layer. Everything a tar header
// could take from the host (owner names, times, modes) is fixed here.
type entry struct {
	path string // relative to /, without a trailing slash
	dir  bool
	mode int64
	id   int // uid and gid
	data []byte
}

func dir(path string, mode int64, id int) entry {
	return entry{path: path, dir: true, mode: mode, id: id}
}

func file(path string, mode int64, data []byte) entry {
	return entry{path: path, mode: mode, data: data}
}

// baseEntries are the files every image holds besides its binary (see
// rootEntries), with the CA bundle read from caCerts.
func baseEntries(caCerts string) ([]entry, error) {
	ca, err := os.ReadFile(caCerts)
	if err != nil {
		return nil, fmt.Errorf("cannot read the CA certificates: %w", err)
	}
	if !bytes.Contains(ca, []byte("-----BEGIN CERTIFICATE-----")) {
		return nil, fmt.Errorf("%s holds no PEM certificate", caCerts)
	}
	return rootEntries(ca), nil
}

// rootEntries are the files every image holds besides its binary: the
// users and groups, a resolver order that honours /etc/hosts, the CA
// bundle ca, and the usual directories.
func rootEntries(ca []byte) []entry {
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:%s:/home/%s:/sbin/nologin\n",
		nonrootName, nonrootID, nonrootID, nonrootName, nonrootName)
	group := fmt.Sprintf("root:x:0:\n%s:x:%d:\n", nonrootName, nonrootID)
	return []entry{
		dir("etc", 0o755, 0),
		file("etc/group", 0o644, []byte(group)),
		file("etc/nsswitch.conf", 0o644, []byte("hosts: files dns\n")),
		file("etc/passwd", 0o644, []byte(passwd)),
		dir("etc/ssl", 0o755, 0),
		dir("etc/ssl/certs", 0o755, 0),
		file(caBundle, 0o644, ca),
		dir("home", 0o755, 0),
		dir("home/"+nonrootName, 0o700, nonrootID),
		dir("tmp", 0o1777, 0),
		dir("usr", 0o755, 0),
		dir("usr/local", 0o755, 0),
		dir(binDir, 0o755, 0),
	}
}

// layer writes entries, sorted by path, into a gzip-compressed layer whose
// every timestamp is mtime, so that the same entries give the same digest
// on any host.
func layer(entries []entry, mtime time.Time) (v1.Layer, error) {
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, func(a, b entry) int { return strings.Compare(a.path, b.path) })
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range sorted {
		if err := tw.WriteHeader(header(e, mtime)); err != nil {
			return nil, fmt.Errorf("cannot write the tar header of %s: %w", e.path, err)
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, fmt.Errorf("cannot write %s: %w", e.path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("cannot close the layer: %w", err)
	}
	b := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	}, tarball.WithCompressedCaching)
}

// header is the USTAR header of e: numeric owner only, no access or change
// times, no PAX records.
func header(e entry, mtime time.Time) *tar.Header {
	h := &tar.Header{
		Typeflag: tar.TypeReg,
		Name:     e.path,
		Mode:     e.mode,
		Uid:      e.id,
		Gid:      e.id,
		Size:     int64(len(e.data)),
		ModTime:  mtime,
		Format:   tar.FormatUSTAR,
	}
	if e.dir {
		h.Typeflag, h.Name, h.Size = tar.TypeDir, e.path+"/", 0
	}
	return h
}
