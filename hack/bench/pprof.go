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
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+r.pprofAddr+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return errors.Wrap(err, "cannot ask for the heap profile")
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return errors.Wrap(err, "cannot read the heap profile")
	}
	defer func() { _ = resp.Body.Close() }()
	path := filepath.Join(r.root, "_output", "bench-heap-"+r.mode()+".pprof")
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return errors.Wrap(err, "cannot create _output")
	}
	f, err := os.Create(path) // a path under the repository root
	if err != nil {
		return errors.Wrap(err, "cannot save the heap profile")
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		_ = f.Close()
		return errors.Wrap(err, "cannot save the heap profile")
	}
	if err := f.Close(); err != nil {
		return errors.Wrap(err, "cannot save the heap profile")
	}
	fmt.Fprintf(r.out, "  heap profile: %s\n", path)
	top, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=25", "-sample_index=inuse_space", path).CombinedOutput()
	if err != nil {
		return errors.Wrapf(err, "go tool pprof: %s", top)
	}
	_, err = r.out.Write(top)
	return err
}
