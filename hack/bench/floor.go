package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/util/uuid"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

// floorMode is the report's name of a -floor run.
const floorMode = "floor"

// validate returns an error for flags that cannot go together; set holds
// the names of the flags given on the command line. A -floor run starts no
// provider: nothing becomes Ready by itself, so there is no burst, no tier
// list to compare and no request bound for the smoke test to check.
func (f flags) validate(set map[string]bool) error {
	if f.peer != "" {
		return f.validatePeer()
	}
	if !f.floor {
		return nil
	}
	switch {
	case f.smoke:
		return errors.New("-floor does not go with -smoke: the smoke test bounds the provider's RustFS requests, and the floor program makes none")
	case set["new"] && f.newBuckets != 0:
		return errors.New("-floor does not go with -new: new Buckets need the provider to become Ready; leave -new unset or 0")
	case set["modes"] && f.modes != "shared":
		return errors.New("-floor does not go with -modes: the floor program has no tier list mode; it runs with the shared mode's cache settings")
	}
	return nil
}

// binary returns the path of the program the benchmark runs.
func (f flags) binary() string {
	if f.floor {
		return filepath.Join(f.root, "bin", "floor")
	}
	return filepath.Join(f.root, "bin", "provider")
}

// args returns the command line of the program under test: the provider's
// flags, or those of them the floor program knows.
func (f flags) args(naive bool, metrics, pprof string) []string {
	args := []string{"--poll=" + f.poll.String(), fmt.Sprintf("--max-reconcile-rate=%d", f.rate),
		"--metrics-bind-address=" + metrics, "--health-probe-bind-address=0"}
	if !f.floor {
		args = append([]string{"--no-leader-election"}, append(args, "--tier-verify-interval="+f.verify.String())...)
	}
	if naive {
		args = append(args, "--naive-tier-list")
	}
	if pprof != "" {
		args = append(args, "--pprof-bind-address="+pprof)
	}
	return args
}

// binarySize returns the size on disk of the program under test.
func (f flags) binarySize() (int64, error) {
	fi, err := os.Stat(f.binary())
	if err != nil {
		return 0, errors.Wrap(err, "cannot read the size of the binary")
	}
	return fi.Size(), nil
}

// createProvided creates the i-th Tier, Bucket and BucketLifecycle as the
// provider leaves them once Ready (provided), each with its
// ProviderConfigUsage and custody record, for the floor program to cache.
func (r *run) createProvided(ctx context.Context, p provided, i int) error {
	for _, o := range resources(r.world, i) {
		s, ok := o.(custody.Subject)
		if !ok {
			return errors.Errorf("%T holds no custody record", o)
		}
		p.prepare(o)
		if err := r.kube.Create(ctx, o); err != nil {
			return errors.Wrapf(err, "cannot create %s", o.GetName())
		}
		gvk, err := apiutil.GVKForObject(o, r.kube.Scheme())
		if err != nil {
			return errors.Wrapf(err, "cannot find the kind of %s", o.GetName())
		}
		if err := r.kube.Create(ctx, usage(o, gvk)); err != nil {
			return errors.Wrapf(err, "cannot create the usage of %s %s", gvk.Kind, o.GetName())
		}
		p.ready(o)
		if err := r.kube.Status().Update(ctx, o); err != nil {
			return errors.Wrapf(err, "cannot write the status of %s %s", gvk.Kind, o.GetName())
		}
		if err := (custody.Store{Kube: r.kube}).Create(ctx, p.record(s, gvk.Kind)); err != nil {
			return errors.Wrapf(err, "cannot create the custody record of %s %s", gvk.Kind, o.GetName())
		}
	}
	return nil
}

// creator returns what creates the objects of index i: as a user would for
// the provider, or as the provider leaves them for the floor.
func (r *run) creator() func(context.Context, int) error {
	if !r.floor {
		return func(ctx context.Context, i int) error {
			for _, o := range resources(r.world, i) {
				if err := r.kube.Create(ctx, o); err != nil {
					return errors.Wrapf(err, "cannot create %s", o.GetName())
				}
			}
			return nil
		}
	}
	p := newProvided(r.world, string(uuid.NewUUID()))
	return func(ctx context.Context, i int) error { return r.createProvided(ctx, p, i) }
}

// validatePeer checks the flags of a side-by-side run: each provider runs
// at its defaults on new Buckets only, so the flags that tune the provider
// or pick other work do not apply.
func (f flags) validatePeer() error {
	switch {
	case f.peerCRDs == "":
		return errors.New("-peer needs -peer-crds: the directory of the peer's CRDs (for provider-minio, package/crds of its repository)")
	case f.floor || f.smoke:
		return errors.New("-peer does not go with -floor or -smoke: it compares two providers at their default flags")
	case f.window <= 0:
		return errors.New("-window must be positive: it is how long each provider is measured after the first create")
	case f.existing < 0:
		return errors.New("-existing must be 0 or more")
	}
	return nil
}
