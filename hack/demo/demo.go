package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A demo is one run. It remembers everything it started so that shutdown
// can stop all of it, in reverse order.
type demo struct {
	flags
	out      io.Writer
	dir      string
	children []*testenv.Child
	kube     *testenv.Env

	core       string // the Crossplane core binary
	coreCRDs   string // Crossplane's CRDs
	skipTenant string // why the Tenant is skipped, if it is
}

// run starts everything, applies the examples, reports, and waits for ctx
// to be cancelled (Ctrl-C) unless --once is set.
func (d *demo) run(ctx context.Context) error {
	start := time.Now()
	if err := d.prepare(); err != nil {
		return err
	}
	t, err := d.target(ctx)
	if err != nil {
		return err
	}
	d.findCore(ctx)
	c, err := d.startKube(ctx)
	if err != nil {
		return err
	}
	if err := d.startProvider(ctx); err != nil {
		return err
	}
	n, err := d.apply(ctx, c, t)
	if err != nil {
		return err
	}
	if n == 0 {
		fmt.Fprintf(d.out, "no Tier, Bucket or BucketLifecycle examples in %s\n", d.examples)
	}
	rows, ready := d.wait(ctx, c, n, start.Add(d.timeout))
	sum := summary(rows, ready)
	if ready {
		proofs := proveKeys(ctx, c)
		rows = append(rows, proofs...)
		sum, ready = withProofs(sum, proofs)
	}
	if ready {
		tr := d.runTenant(ctx, c)
		rows = append(rows, tr.rows...)
		sum, ready = sum+"; "+tr.line, tr.ok
	}
	printTable(d.out, rows)
	fmt.Fprintf(d.out, "\n%s in %s.\n", sum, time.Since(start).Round(100*time.Millisecond))
	if d.once {
		if !ready {
			return errors.New(sum)
		}
		return nil
	}
	d.printAccess()
	<-ctx.Done()
	fmt.Fprintln(d.out, "\nstopping ...")
	return nil
}

// prepare checks the binaries and creates the work directory.
func (d *demo) prepare() error {
	for _, b := range []string{"provider", "rustfs-emulator"} {
		if _, err := os.Stat(d.bin(b)); err != nil {
			return errors.Errorf("%s is missing: run `make demo`, which builds it", d.bin(b))
		}
	}
	dir, err := os.MkdirTemp("", "provider-rustfs-demo-")
	if err != nil {
		return errors.Wrap(err, "cannot create the work directory")
	}
	d.dir = dir
	return nil
}

func (d *demo) bin(name string) string { return filepath.Join(d.root, "bin", name) }

// startProvider runs bin/provider against the demo's API server.
func (d *demo) startProvider(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	env := []string{"KUBECONFIG=" + d.kubeconfig()}
	_, err := d.spawn("provider", env, d.bin("provider"),
		"--debug", "--no-leader-election", "--metrics-bind-address=0", "--health-probe-bind-address=0")
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "provider started (log: %s)\n", filepath.Join(d.dir, "provider.log"))
	return nil
}

func (d *demo) kubeconfig() string { return filepath.Join(d.dir, "kubeconfig") }

// printAccess tells the user how to look around.
func (d *demo) printAccess() {
	k := d.kubeconfig()
	fmt.Fprintf(d.out, `
The API server keeps running until Ctrl-C. Inspect it with kubectl:

  export KUBECONFIG=%s
  kubectl get managed -A
  kubectl get tiers.rustfs.m.crossplane.io -A -o yaml

Logs: %s/{provider,emulator}.log
Press Ctrl-C to stop everything.
`, k, d.dir)
}

// shutdown stops every child in reverse order of start, then the API
// server and etcd, and removes the work directory unless --keep.
func (d *demo) shutdown() {
	for i := len(d.children) - 1; i >= 0; i-- {
		d.children[i].Stop()
	}
	if d.kube != nil {
		if err := d.kube.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "demo: %v\n", err)
		}
	}
	if d.dir == "" {
		return
	}
	if d.keep {
		fmt.Fprintf(d.out, "work directory kept: %s\n", d.dir)
		return
	}
	_ = os.RemoveAll(d.dir)
}
