package main

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// xpkgLabelPrefix starts the config labels in which crossplane xpkg build
// records what a layer holds (io.crossplane.xpkg:<layer digest> = base,
// examples, …).
const xpkgLabelPrefix = "io.crossplane.xpkg:"

// A report is what `xpkgtool inspect` prints about an image or package.
type report struct {
	Digest    string        `json:"digest"`
	MediaType string        `json:"mediaType"`
	Config    v1.ConfigFile `json:"config"`
	Layers    []layerReport `json:"layers"`
}

// A layerReport describes one layer: its digest, the xpkg annotation
// crossplane gave it, and the header of every file in it.
type layerReport struct {
	Digest     string       `json:"digest"`
	MediaType  string       `json:"mediaType"`
	Annotation string       `json:"annotation,omitempty"`
	Files      []fileReport `json:"files"`
}

// A fileReport is the tar header of one file of a layer.
type fileReport struct {
	Name    string `json:"name"`
	Type    string `json:"type"` // "file", "dir" or the tar type flag
	Mode    int64  `json:"mode"`
	UID     int    `json:"uid"`
	GID     int    `json:"gid"`
	Uname   string `json:"uname,omitempty"`
	Gname   string `json:"gname,omitempty"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"modTime"`
	PAX     bool   `json:"pax,omitempty"` // the header carries PAX records
}

// runInspect is `xpkgtool inspect FILE`: it prints a JSON report of an
// image or package tarball.
func runInspect(args []string) error {
	if len(args) != 1 {
		return errors.New("usage: xpkgtool inspect FILE")
	}
	img, err := tarball.ImageFromPath(args[0], nil)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", args[0], err)
	}
	r, err := inspect(img)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// inspect reports the digest, config and layers of img.
func inspect(img v1.Image) (*report, error) {
	d, err := img.Digest()
	if err != nil {
		return nil, fmt.Errorf("cannot compute the digest: %w", err)
	}
	mt, err := img.MediaType()
	if err != nil {
		return nil, fmt.Errorf("cannot read the media type: %w", err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("cannot read the config: %w", err)
	}
	layers, err := img.Layers()
	if err != nil {
		return nil, fmt.Errorf("cannot read the layers: %w", err)
	}
	r := &report{Digest: d.String(), MediaType: string(mt), Config: *cf}
	for _, l := range layers {
		lr, err := inspectLayer(l, cf.Config.Labels)
		if err != nil {
			return nil, err
		}
		r.Layers = append(r.Layers, lr)
	}
	return r, nil
}

func inspectLayer(l v1.Layer, labels map[string]string) (layerReport, error) {
	d, err := l.Digest()
	if err != nil {
		return layerReport{}, fmt.Errorf("cannot compute a layer digest: %w", err)
	}
	mt, err := l.MediaType()
	if err != nil {
		return layerReport{}, fmt.Errorf("cannot read a layer media type: %w", err)
	}
	rc, err := l.Uncompressed()
	if err != nil {
		return layerReport{}, fmt.Errorf("cannot open layer %s: %w", d, err)
	}
	defer func() { _ = rc.Close() }()
	lr := layerReport{Digest: d.String(), MediaType: string(mt), Annotation: labels[xpkgLabelPrefix+d.String()]}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return lr, nil
		}
		if err != nil {
			return layerReport{}, fmt.Errorf("cannot read layer %s: %w", d, err)
		}
		lr.Files = append(lr.Files, fileOf(h))
	}
}

func fileOf(h *tar.Header) fileReport {
	typ := string(rune(h.Typeflag))
	switch h.Typeflag {
	case tar.TypeReg:
		typ = "file"
	case tar.TypeDir:
		typ = "dir"
	}
	return fileReport{
		Name: h.Name, Type: typ, Mode: h.Mode, UID: h.Uid, GID: h.Gid, Uname: h.Uname, Gname: h.Gname,
		Size: h.Size, ModTime: h.ModTime.Unix(), PAX: len(h.PAXRecords) > 0,
	}
}

// runExtract is `xpkgtool extract FILE PATH OUT`: it copies the file PATH
// of the image in FILE (an image or package tarball) to OUT, executable.
func runExtract(args []string) error {
	if len(args) != 3 {
		return errors.New("usage: xpkgtool extract FILE PATH OUT")
	}
	img, err := tarball.ImageFromPath(args[0], nil)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", args[0], err)
	}
	return extract(img, args[1], args[2])
}

// extract copies the file at path in img's filesystem to out.
func extract(img v1.Image, path, out string) error {
	rc := mutate.Extract(img)
	defer func() { _ = rc.Close() }()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("the image has no file %s", path)
		}
		if err != nil {
			return fmt.Errorf("cannot read the image filesystem: %w", err)
		}
		if h.Name != path || h.Typeflag != tar.TypeReg {
			continue
		}
		f, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
		if err != nil {
			return fmt.Errorf("cannot create %s: %w", out, err)
		}
		if _, err := io.Copy(f, tr); err != nil { // The size is that of a file we built.
			_ = f.Close()
			return fmt.Errorf("cannot write %s: %w", out, err)
		}
		return f.Close()
	}
}
