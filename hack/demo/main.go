// Command demo runs the provider end to end on one machine, with no cluster
// and no RustFS: it starts etcd and kube-apiserver (the binaries that
// `hack/tools.sh assets` caches), installs package/provider/crds, starts the RustFS
// emulator (bin/rustfs-emulator: a "local" RustFS the provider manages and
// a "remote" one holding the tier bucket) and the provider binary
// (bin/provider), applies the examples with the demo's endpoints and
// credentials substituted, and waits until every resource is Ready. It
// then runs Crossplane core out of cluster (hack/tools.sh crossplane-core)
// and the Tenant function (bin/function), installs the Tenant XRDs and
// Compositions of package/configuration, applies examples/tenant against
// a RustFS emulator of its own and waits until the Tenant is Ready; if core
// cannot run, it says why in one line and goes on without the Tenant. It
// prints a status table and keeps running, with a kubeconfig for kubectl,
// until Ctrl-C, and stops everything it started.
//
// With RUSTFS_ENDPOINT, RUSTFS_ACCESS_KEY and RUSTFS_SECRET_KEY (and
// RUSTFS_TIER_ENDPOINT, RUSTFS_TIER_BUCKET, RUSTFS_TIER_ACCESS_KEY and
// RUSTFS_TIER_SECRET_KEY for the remote tier) set, it targets that real
// RustFS instead of the emulator.
//
// Run it with `make demo`, which builds the binaries first.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// flags are the demo's command line.
type flags struct {
	root     string
	examples string
	timeout  time.Duration
	once     bool
	keep     bool

	noTenant      bool
	tenantTimeout time.Duration
}

func parseFlags() flags {
	var f flags
	flag.StringVar(&f.root, "root", ".", "repository root: where bin/, package/provider/crds and examples/ are")
	flag.StringVar(&f.examples, "examples", "", "examples directory (default <root>/examples)")
	flag.DurationVar(&f.timeout, "timeout", 2*time.Minute, "how long to wait for every resource to become Ready")
	flag.BoolVar(&f.once, "once", false, "stop after printing the status table instead of waiting for Ctrl-C; exit 1 unless all are Ready")
	flag.BoolVar(&f.keep, "keep", false, "keep the work directory (kubeconfig, logs) after stopping")
	tenant := flag.Bool("tenant", true, "also run Crossplane core and the Tenant function and apply examples/tenant")
	flag.DurationVar(&f.tenantTimeout, "tenant-timeout", 3*time.Minute, "how long to wait for the Tenant to become Ready, once core runs")
	flag.Parse()
	f.noTenant = !*tenant
	if f.examples == "" {
		f.examples = filepath.Join(f.root, "examples")
	}
	return f
}

func main() {
	f := parseFlags()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	d := &demo{flags: f, out: os.Stdout}
	err := d.run(ctx)
	if errors.Is(err, context.Canceled) {
		d.shutdown()
		fmt.Fprintln(os.Stdout, "interrupted; everything the demo started is stopped")
		return
	}
	if err != nil {
		d.keep = true // the logs say why
	}
	d.shutdown()
	if err != nil {
		fmt.Fprintf(os.Stderr, "demo: %v\n", err)
		if d.dir != "" {
			fmt.Fprintf(os.Stderr, "demo: logs kept in %s (provider.log, emulator.log, crossplane-core.log, function.log, kube-apiserver and etcd logs)\n", d.dir)
		}
		os.Exit(1)
	}
}
