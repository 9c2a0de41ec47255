package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// peerMetricsAddr is where a controller-runtime manager serves its metrics
// when nothing configures it, as provider-minio's does.
const peerMetricsAddr = "127.0.0.1:8080"

// A contender is one provider of the side-by-side run, at its default
// flags: how it starts, what it needs and the Buckets it manages.
type contender struct {
	name    string
	binary  string
	args    func(metrics, pprof string) []string
	fixed   string // the metrics address the binary always uses, if it takes none
	objects func(w world) []client.Object
	bucket  func(i int) *unstructured.Unstructured
	gvr     schema.GroupVersionResource
}

// rustfsContender is provider-rustfs at its defaults: only the addresses
// and leader election (one replica) are set.
func (f flags) rustfsContender() contender {
	return contender{
		name: "provider-rustfs", binary: f.binary(),
		args: func(metrics, pprof string) []string {
			args := []string{"--no-leader-election", "--metrics-bind-address=" + metrics, "--health-probe-bind-address=0"}
			if pprof != "" {
				args = append(args, "--pprof-bind-address="+pprof)
			}
			return args
		},
		objects: setup,
		bucket: func(i int) *unstructured.Unstructured {
			u := object("rustfs.m.crossplane.io/v1alpha1", "Bucket", benchNS, bucketName(i))
			_ = unstructured.SetNestedMap(u.Object, map[string]any{"kind": "ClusterProviderConfig", "name": configName}, "spec", "providerConfigRef")
			return u
		},
		gvr: schema.GroupVersionResource{Group: "rustfs.m.crossplane.io", Version: "v1alpha1", Resource: "buckets"},
	}
}

// peerContender is vshn/provider-minio (or a binary that takes its
// command line and CRDs) at its defaults: `operator`, metrics on :8080.
func (f flags) peerContender() contender {
	return contender{
		name: filepath.Base(f.peer), binary: f.peer, fixed: peerMetricsAddr,
		args:    func(string, string) []string { return []string{"operator"} },
		objects: peerSetup,
		bucket: func(i int) *unstructured.Unstructured {
			u := object("minio.crossplane.io/v1", "Bucket", "", bucketName(i))
			_ = unstructured.SetNestedField(u.Object, bucketName(i), "spec", "forProvider", "bucketName")
			_ = unstructured.SetNestedField(u.Object, configName, "spec", "providerConfigRef", "name")
			return u
		},
		gvr: schema.GroupVersionResource{Group: "minio.crossplane.io", Version: "v1", Resource: "buckets"},
	}
}

func bucketName(i int) string { return fmt.Sprintf("side-%04d", i) }

func object(apiVersion, kind, ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

// peerSetup returns the peer's credentials Secret and ProviderConfig.
func peerSetup(w world) []client.Object {
	pc := object("minio.crossplane.io/v1", "ProviderConfig", "", configName)
	pc.Object["spec"] = map[string]any{
		"minioURL": w.endpoint + "/",
		"credentials": map[string]any{"source": "InjectedIdentity",
			"apiSecretRef": map[string]any{"name": adminSecret, "namespace": systemNS}},
	}
	return []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: systemNS}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: systemNS, Name: adminSecret},
			StringData: map[string]string{"AWS_ACCESS_KEY_ID": w.accessKey, "AWS_SECRET_ACCESS_KEY": w.secretKey}},
		pc,
	}
}

// A sideResult is what one contender measured on the same work.
type sideResult struct {
	name                string
	idleRSS             int64
	peakRSS, settledRSS int64
	cpu                 time.Duration
	reconciles          float64
	causes              map[string]float64 // provider-rustfs's reconciles by cause, and deferred
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
	return sideCounters{rss: p.rss, cpu: p.cpu, reconciles: s.sum("controller_runtime_reconcile_total", nil), causes: causes}, nil
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

// A readyClock records when each Bucket first reported Ready=True.
type readyClock struct {
	stop func()

	mu    sync.Mutex
	start time.Time
	at    map[string]time.Time
}

// watchReady starts an informer on the contender's Buckets.
func watchReady(ctx context.Context, cfg *rest.Config, gvr schema.GroupVersionResource) (*readyClock, error) {
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, errors.Wrap(err, "cannot create the benchmark's dynamic client")
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &readyClock{stop: cancel, at: map[string]time.Time{}}
	inf := dynamicinformer.NewDynamicSharedInformerFactory(dc, 0).ForResource(gvr).Informer()
	if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    c.observe,
		UpdateFunc: func(_, o any) { c.observe(o) },
	}); err != nil {
		cancel()
		return nil, errors.Wrap(err, "cannot watch Buckets")
	}
	go inf.Run(ctx.Done())
	if !toolscache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		cancel()
		return nil, errors.New("the benchmark's Bucket informer did not sync")
	}
	return c, nil
}

// observe records when o first reports Ready=True.
func (c *readyClock) observe(obj any) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || !isReady(u) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, seen := c.at[u.GetName()]; !seen {
		c.at[u.GetName()] = time.Now()
	}
}

// isReady reports whether u has the condition Ready=True.
func isReady(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if ok && m["type"] == "Ready" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// waitFor returns when n Buckets are Ready, or fails at the deadline.
func (c *readyClock) waitFor(ctx context.Context, n int, deadline time.Time) (time.Time, error) {
	for {
		c.mu.Lock()
		got := len(c.at)
		c.mu.Unlock()
		if got >= n {
			return time.Now(), nil
		}
		if time.Now().After(deadline) {
			return time.Time{}, errors.Errorf("%d of %d Buckets Ready at the deadline", got, n)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (c *readyClock) since(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start = t
}

// times returns the times to Ready of the Buckets [from, to) that became
// Ready, sorted.
func (c *readyClock) times(from, to int) []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ds []time.Duration
	for i := from; i < to; i++ {
		if at, ok := c.at[bucketName(i)]; ok {
			ds = append(ds, at.Sub(c.start))
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds
}

// printSideBySide prints the contenders' figures as a Markdown table, with
// the first contender's ratio to the second where a ratio means something.
func printSideBySide(out io.Writer, rs []*sideResult) {
	fmt.Fprintf(out, "\n| |")
	for _, r := range rs {
		fmt.Fprintf(out, " %s |", r.name)
	}
	if len(rs) == 2 {
		fmt.Fprintf(out, " ratio |")
	}
	fmt.Fprintf(out, "\n|---|")
	for range len(rs) + min(1, len(rs)/2) {
		fmt.Fprintf(out, "---|")
	}
	fmt.Fprintln(out)
	for _, row := range sideRows() {
		fmt.Fprintf(out, "| %s |", row.name)
		for _, r := range rs {
			fmt.Fprintf(out, " %s |", row.show(r))
		}
		if len(rs) == 2 {
			fmt.Fprintf(out, " %s |", ratio(row.value, rs[0], rs[1]))
		}
		fmt.Fprintln(out)
	}
}

// A sideRow is one line of the side-by-side table.
type sideRow struct {
	name  string
	show  func(*sideResult) string
	value func(*sideResult) float64 // nil: no ratio
}

func sideRows() []sideRow {
	mem := func(f func(*sideResult) int64) sideRow {
		return sideRow{show: func(r *sideResult) string { return mib(float64(f(r))) }, value: func(r *sideResult) float64 { return float64(f(r)) }}
	}
	at := func(q float64) func(*sideResult) float64 {
		return func(r *sideResult) float64 { return quantile(r.ready, q).Seconds() }
	}
	rows := []sideRow{
		mem(func(r *sideResult) int64 { return r.idleRSS }),
		mem(func(r *sideResult) int64 { return r.peakRSS }),
		mem(func(r *sideResult) int64 { return r.settledRSS }),
		{show: func(r *sideResult) string { return fmt.Sprintf("%.1f", r.cpu.Seconds()) }, value: func(r *sideResult) float64 { return r.cpu.Seconds() }},
		{show: func(r *sideResult) string { return fmt.Sprintf("%.0f", r.reconciles) }, value: func(r *sideResult) float64 { return r.reconciles }},
		{show: causesLine},
		{show: func(r *sideResult) string { return fmt.Sprintf("%d", r.requests) }, value: func(r *sideResult) float64 { return float64(r.requests) }},
		{show: func(r *sideResult) string { return fmt.Sprintf("%d / %d", len(r.ready), r.n) }},
		{show: func(r *sideResult) string { return readyTimes(r.ready) }, value: at(1)},
	}
	names := []string{"idle RSS", "peak RSS in the window", "settled RSS (end of the window)", "CPU-s, first create to end of the window",
		"controller-runtime reconciles in the window", "of which, by cause (rustfs_managed_reconciles_total, rustfs_deferred_reconciles_total)", "RustFS requests in the window", "Buckets Ready in the window",
		"Ready first / median / last (s after the first create)"}
	for i := range rows {
		rows[i].name = names[i]
	}
	return rows
}

// readyTimes returns "first / median / last" in seconds.
func readyTimes(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	return fmt.Sprintf("%.1f / %.1f / %.1f", quantile(ds, 0).Seconds(), quantile(ds, 0.5).Seconds(), quantile(ds, 1).Seconds())
}

// quantile returns the q-quantile (0 first, 1 last) of the sorted ds, by
// the nearest rank; zero for none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	i := int(q*float64(len(ds)-1) + 0.5)
	return ds[i]
}

// ratio returns value(a)/value(b) with two decimals, or "" when the row
// has no ratio or b is zero.
func ratio(value func(*sideResult) float64, a, b *sideResult) string {
	if value == nil || value(b) == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f×", value(a)/value(b))
}

// causesLine renders the reconciles by cause, or says the provider does
// not report them.
func causesLine(r *sideResult) string {
	if len(r.causes) == 0 {
		return "not reported"
	}
	return joinSorted(r.causes, "%s %.0f")
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
