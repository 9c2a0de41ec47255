package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A run measures one list mode: a fresh API server, fresh emulators and a
// fresh provider process.
type run struct {
	flags
	naive bool
	out   io.Writer

	dir       string
	world     world
	local     *rustfstest.Server
	remote    *rustfstest.Server
	cp        *testenv.Env
	kube      client.Client
	provider  *testenv.Child
	metrics   string // the provider's metrics URL
	apiStats  func(context.Context) (samples, error)
	rss       sampler
	stop      chan struct{}
	untrack   context.CancelFunc // stops the tracker's informers
	tracker   *tracker
	pprofAddr string
}

func (r *run) mode() string {
	if r.floor {
		return floorMode
	}
	if r.naive {
		return "naive"
	}
	return "shared"
}

// execute runs the benchmark of one mode and stops everything it started.
func (r *run) execute(ctx context.Context) (*result, error) {
	defer r.shutdown()
	if err := r.start(ctx); err != nil {
		return nil, err
	}
	res := &result{mode: r.mode(), n: r.n, poll: r.poll, rate: r.rate, intervals: r.intervals, secrets: r.secrets, verify: r.verify}
	var err error
	if res.binary, err = r.binarySize(); err != nil {
		return nil, err
	}
	if err := r.converge(ctx, res); err != nil {
		return nil, err
	}
	fmt.Fprintf(r.out, "  all %d resources Ready in %s; settling for %s\n", 3*r.n, res.toReady.Round(time.Second), r.settle)
	select {
	case <-time.After(r.settle):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := r.steady(ctx, res); err != nil {
		return nil, err
	}
	if res.sizes, err = objectSizes(ctx, r.kube); err != nil {
		return nil, err
	}
	if res.watches, err = r.watches(ctx); err != nil {
		return nil, err
	}
	if err := r.heapProfile(ctx); err != nil {
		return nil, err
	}
	return res, r.burst(ctx, res)
}

// start starts the emulators, the API server and the provider, and creates
// the objects every managed resource uses.
func (r *run) start(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "provider-rustfs-bench-")
	if err != nil {
		return errors.Wrap(err, "cannot create the work directory")
	}
	r.dir, r.stop = dir, make(chan struct{})
	w := world{accessKey: "bench-admin", secretKey: randomKey(), remoteAccessKey: "bench-remote", remoteSecret: randomKey()}
	r.remote = rustfstest.NewServer(rustfstest.WithRootCredentials(w.remoteAccessKey, w.remoteSecret))
	r.remote.CreateBucket(remoteBucket, false)
	r.local = rustfstest.NewServer(rustfstest.WithRootCredentials(w.accessKey, w.secretKey))
	w.endpoint, w.remote = r.local.URL(), r.remote.TierURL()
	r.world = w
	if r.cp, err = testenv.Launch(ctx, r.root, r.dir, r.out); err != nil {
		return err
	}
	cfg := rest.CopyConfig(r.cp.Config)
	cfg.QPS, cfg.Burst = 1000, 2000
	if r.kube, err = client.New(cfg, client.Options{Scheme: r.cp.Client.Scheme()}); err != nil {
		return errors.Wrap(err, "cannot create the benchmark's client")
	}
	for _, o := range append(setup(w), noise(r.secrets, noiseSize)...) {
		if err := r.kube.Create(ctx, o); err != nil {
			return errors.Wrapf(err, "cannot create %s %s", o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
		}
	}
	if r.apiStats, err = apiServerMetrics(r.cp.Config); err != nil {
		return err
	}
	return r.startProvider(ctx)
}

// startProvider runs bin/provider, or bin/floor with -floor, and waits
// until its three managed resource controllers run.
func (r *run) startProvider(ctx context.Context) error {
	addr, err := testenv.FreeAddr()
	if err != nil {
		return err
	}
	if r.pprof {
		if r.pprofAddr, err = testenv.FreeAddr(); err != nil {
			return err
		}
	}
	env := append([]string{"KUBECONFIG=" + r.cp.Kubeconfig}, r.providerEnv...)
	if r.provider, err = testenv.Spawn(r.dir, filepath.Base(r.binary()), env, r.binary(), r.args(r.naive, addr, r.pprofAddr)...); err != nil {
		return err
	}
	go r.rss.run(r.provider.Pid(), r.stop)
	if err := testenv.WaitListening(ctx, addr, 15*time.Second, r.provider.Alive); err != nil {
		return err
	}
	r.metrics = "http://" + addr + "/metrics"
	return r.waitControllers(ctx)
}

// waitControllers waits until the provider's metrics show the Tier, Bucket
// and BucketLifecycle controllers, which start once their CRDs exist.
func (r *run) waitControllers(ctx context.Context) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		s, err := scrape(ctx, httpClient, r.metrics)
		if err == nil && running(s) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return errors.New("the controllers did not start within a minute; see " + filepath.Join(r.dir, filepath.Base(r.binary())+".log"))
}

// running reports whether the metrics show the three managed resource
// controllers.
func running(s samples) bool {
	c := s.by("controller_runtime_max_concurrent_reconciles", "controller", nil)
	for _, k := range kinds {
		if _, ok := c[controllers[k]]; !ok {
			return false
		}
	}
	return true
}

// createAll creates the n Tiers, Buckets and BucketLifecycles with 16
// concurrent clients, in the order a Tenant of each index would (r.creator).
func (r *run) createAll(ctx context.Context) error {
	create := r.creator()
	idx := make(chan int)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for i := range idx {
				if err := create(ctx, i); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		})
	}
	go func() {
		defer close(idx)
		for i := range r.n {
			select {
			case idx <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	return <-errs
}

// shutdown stops the provider, the API server and the emulators, and
// removes the work directory unless --keep.
func (r *run) shutdown() {
	if r.stop != nil {
		close(r.stop)
	}
	if r.provider != nil {
		r.provider.Stop()
	}
	if r.untrack != nil {
		r.untrack()
	}
	if r.cp != nil {
		if err := r.cp.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		}
	}
	for _, s := range []*rustfstest.Server{r.local, r.remote} {
		if s != nil {
			s.Close()
		}
	}
	if r.keep {
		fmt.Fprintf(r.out, "  work directory kept: %s\n", r.dir)
		return
	}
	_ = os.RemoveAll(r.dir)
}

// randomKey returns a fresh secret key; it is never printed.
func randomKey() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
