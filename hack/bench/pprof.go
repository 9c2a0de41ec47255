package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// heapProfile saves the provider's heap profile (after a collection) to
// _output/bench-heap-MODE.pprof and prints the top of its in-use space,
// when -pprof asked for it.
func (r *run) heapProfile(ctx context.Context) error {
	if r.pprofAddr == "" {
		return nil
	}
	path := filepath.Join(r.root, "_output", "bench-heap-"+r.mode()+".pprof")
	return saveProfile(ctx, r.out, "http://"+r.pprofAddr+"/debug/pprof/heap?gc=1", path, "-sample_index=inuse_space")
}

// profileClient fetches profiles, which take as long as they sample: the
// context bounds it, not a timeout.
var profileClient = &http.Client{}

// saveProfile saves the profile served at url to path and prints the top
// of the sample index that index (a pprof flag) names.
func saveProfile(ctx context.Context, out io.Writer, url, path, index string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return errors.Wrap(err, "cannot ask for the profile")
	}
	resp, err := profileClient.Do(req)
	if err != nil {
		return errors.Wrap(err, "cannot read the profile")
	}
	defer func() { _ = resp.Body.Close() }()
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return errors.Wrap(err, "cannot create _output")
	}
	f, err := os.Create(path) // a path under the repository root
	if err != nil {
		return errors.Wrap(err, "cannot save the profile")
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		_ = f.Close()
		return errors.Wrap(err, "cannot save the profile")
	}
	if err := f.Close(); err != nil {
		return errors.Wrap(err, "cannot save the profile")
	}
	fmt.Fprintf(out, "  profile: %s\n", path)
	top, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=25", index, path).CombinedOutput()
	if err != nil {
		return errors.Wrapf(err, "go tool pprof: %s", top)
	}
	_, err = out.Write(top)
	return err
}
