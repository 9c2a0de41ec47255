package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A sideResult is what one contender measured on the same work.
type sideResult struct {
	name                string
	idleRSS             int64
	peakRSS, settledRSS int64
	cpu                 time.Duration
	reconciles          float64
	causes              map[string]float64 // provider-rustfs's reconciles by cause, and deferred
	api                 map[string]float64 // requests to the API server by method (client-go's rest_client_requests_total)
	served              map[string]float64 // the API server's writes and reads by verb and resource, the benchmark's own included
	requests            int
	ready               []time.Duration // each Bucket's time to Ready after the first create
	n                   int
}

// compare runs each contender in turn on fresh components and prints the
// side-by-side table.
func compare(ctx context.Context, f flags, out io.Writer) error {
	var rs []*sideResult
	for _, c := range []contender{f.rustfsContender(), f.peerContender()} {
		fmt.Fprintf(out, "%s: %d existing Buckets, then %d created; window %s\n", c.name, f.existing, f.n, f.window)
		r := &sideRun{flags: f, c: c, out: out}
		res, err := r.execute(ctx)
		if err != nil {
			return errors.Wrap(err, c.name)
		}
		rs = append(rs, res)
	}
	printSideBySide(out, rs)
	return nil
}

// A sideRun is one contender's run: a fresh API server, emulator and
// provider process.
type sideRun struct {
	flags
	c   contender
	out io.Writer

	dir      string
	local    *rustfstest.Server
	cp       *testenv.Env
	kube     client.Client
	provider *testenv.Child
	metrics  string
	pprof    string // provider-rustfs's pprof address, with -pprof
	apiStats func(context.Context) (samples, error)
	rss      sampler
	stop     chan struct{}
	ready    *readyClock
}

func (r *sideRun) execute(ctx context.Context) (*sideResult, error) {
	defer r.shutdown()
	if err := r.start(ctx); err != nil {
		return nil, err
	}
	if err := r.createRange(ctx, r.n, r.n+r.existing); err != nil {
		return nil, err
	}
	if _, err := r.ready.waitFor(ctx, r.existing, time.Now().Add(r.timeout)); err != nil {
		return nil, errors.Wrap(err, "the existing Buckets")
	}
	time.Sleep(10 * time.Second) // let the existing settle into polling
	idle, err := readProc(r.provider.Pid())
	if err != nil {
		return nil, err
	}
	res := &sideResult{name: r.c.name, idleRSS: idle.rss, n: r.n}
	before, err := r.counters(ctx)
	if err != nil {
		return nil, err
	}
	r.local.ResetCounters()
	start := time.Now()
	r.ready.since(start)
	profiled := r.cpuProfile(ctx, start.Add(r.window))
	if err := r.createRange(ctx, 0, r.n); err != nil {
		return nil, err
	}
	select {
	case <-time.After(time.Until(start.Add(r.window))):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := <-profiled; err != nil {
		return nil, err
	}
	after, err := r.counters(ctx)
	if err != nil {
		return nil, err
	}
	res.cpu, res.reconciles = after.cpu-before.cpu, after.reconciles-before.reconciles
	res.causes = delta(after.causes, before.causes)
	res.api = delta(after.api, before.api)
	res.served = delta(after.served, before.served)
	res.requests = total(r.local.Counts())
	res.peakRSS, _ = r.rss.window(start, time.Now())
	res.settledRSS = after.rss
	res.ready = r.ready.times(0, r.n)
	return res, nil
}

// sideCounters are the provider's cumulative CPU time and reconciles.
type sideCounters struct {
	rss        int64
	cpu        time.Duration
	reconciles float64
	causes     map[string]float64
	api        map[string]float64
	served     map[string]float64
}

func (r *sideRun) counters(ctx context.Context) (sideCounters, error) {
	p, err := readProc(r.provider.Pid())
	if err != nil {
		return sideCounters{}, err
	}
	s, err := scrape(ctx, httpClient, r.metrics)
	if err != nil {
		return sideCounters{}, err
	}
	causes := s.by("rustfs_managed_reconciles_total", "cause", nil)
	if len(causes) > 0 {
		causes["deferred"] = s.sum("rustfs_deferred_reconciles_total", nil)
	}
	a, err := r.apiStats(ctx)
	if err != nil {
		return sideCounters{}, err
	}
	return sideCounters{rss: p.rss, cpu: p.cpu, reconciles: s.sum("controller_runtime_reconcile_total", nil), causes: causes,
		api: s.by("rest_client_requests_total", "method", nil), served: served(a)}, nil
}

// served is the API server's requests other than watches by verb and
// resource (apiserver_request_total).
func served(ss samples) map[string]float64 {
	out := map[string]float64{}
	for _, s := range ss {
		l := s.labels
		if s.name != "apiserver_request_total" || l["verb"] == "WATCH" {
			continue
		}
		k := l["verb"] + " " + l["resource"]
		if l["subresource"] != "" {
			k += "/" + l["subresource"]
		}
		out[k] += s.value
	}
	return out
}

func (r *sideRun) start(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "provider-rustfs-compare-")
	if err != nil {
		return errors.Wrap(err, "cannot create the work directory")
	}
	r.dir, r.stop = dir, make(chan struct{})
	w := world{accessKey: "bench-admin", secretKey: randomKey()}
	r.local = rustfstest.NewServer(rustfstest.WithRootCredentials(w.accessKey, w.secretKey))
	w.endpoint = r.local.URL()
	if r.cp, err = testenv.Launch(ctx, r.root, r.dir, r.out, r.peerCRDs); err != nil {
		return err
	}
	if r.kube, err = client.New(r.cp.Config, client.Options{Scheme: r.cp.Client.Scheme()}); err != nil {
		return errors.Wrap(err, "cannot create the benchmark's client")
	}
	for _, o := range r.c.objects(w) {
		if err := r.kube.Create(ctx, o); err != nil && !kerrors.IsAlreadyExists(err) {
			return errors.Wrapf(err, "cannot create %s", o.GetName())
		}
	}
	if r.apiStats, err = apiServerMetrics(r.cp.Config); err != nil {
		return err
	}
	if r.ready, err = watchReady(ctx, r.cp.Config, r.c.gvr); err != nil {
		return err
	}
	return r.startProvider(ctx)
}

func (r *sideRun) startProvider(ctx context.Context) error {
	addr := r.c.fixed
	if addr == "" {
		var err error
		if addr, err = testenv.FreeAddr(); err != nil {
			return err
		}
	}
	var err error
	env := []string{"KUBECONFIG=" + r.cp.Kubeconfig}
	if r.c.fixed == "" {
		env = append(env, r.providerEnv...)
	}
	if r.flags.pprof && r.c.fixed == "" {
		if r.pprof, err = testenv.FreeAddr(); err != nil {
			return err
		}
	}
	if r.provider, err = testenv.Spawn(r.dir, filepath.Base(r.c.binary), env, r.c.binary, r.c.args(addr, r.pprof)...); err != nil {
		return err
	}
	go r.rss.run(r.provider.Pid(), r.stop)
	if err := testenv.WaitListening(ctx, addr, 30*time.Second, r.provider.Alive); err != nil {
		return err
	}
	r.metrics = "http://" + addr + "/metrics"
	return nil
}

// createRange creates the Buckets [from, to) with 16 concurrent clients.
func (r *sideRun) createRange(ctx context.Context, from, to int) error {
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	idx := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range idx {
				if err := r.kube.Create(ctx, r.c.bucket(i)); err != nil {
					once.Do(func() { first = errors.Wrapf(err, "cannot create Bucket %s", bucketName(i)) })
				}
			}
		})
	}
	for i := from; i < to; i++ {
		idx <- i
	}
	close(idx)
	wg.Wait()
	return first
}

func (r *sideRun) shutdown() {
	if r.stop != nil {
		close(r.stop)
	}
	if r.provider != nil {
		r.provider.Stop()
	}
	if r.ready != nil {
		r.ready.stop()
	}
	if r.cp != nil {
		if err := r.cp.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		}
	}
	if r.local != nil {
		r.local.Close()
	}
	if r.keep {
		fmt.Fprintf(r.out, "  work directory kept: %s\n", r.dir)
		return
	}
	_ = os.RemoveAll(r.dir)
}

// cpuProfile saves provider-rustfs's CPU profile from now until end to
// _output/bench-cpu-compare.pprof, with -pprof, and prints its top.
func (r *sideRun) cpuProfile(ctx context.Context, end time.Time) <-chan error {
	done := make(chan error, 1)
	if r.pprof == "" {
		done <- nil
		return done
	}
	go func() {
		url := fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", r.pprof, int(time.Until(end).Seconds()))
		done <- saveProfile(ctx, r.out, url, filepath.Join(r.root, "_output", "bench-cpu-compare.pprof"), "-sample_index=cpu")
	}()
	return done
}
