package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// burstPrefix names the Buckets the burst phase creates.
const burstPrefix = "new-"

// A burstResult is what the burst phase measured: new Buckets created
// while every resource of the run polls.
type burstResult struct {
	n       int           // new Buckets
	polling int           // resources already Ready and polling
	toReady time.Duration // first create until every new Bucket is Ready
	local   requestCount  // the managed RustFS's requests from the first create until all Ready
	remote  requestCount  // the tier-target RustFS's requests in the same time
	managed map[string]float64
	cpu     time.Duration
	rssPeak int64
}

// burst creates r.newBuckets Buckets while the run's resources poll, and
// waits until all of them are Ready: the time to Ready of new work that
// must not wait behind the polls.
func (r *run) burst(ctx context.Context, res *result) error {
	if r.newBuckets == 0 {
		return nil
	}
	counting := time.Now()
	r.local.ResetCounters()
	r.remote.ResetCounters()
	before, err := r.snap(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(r.out, "  burst: creating %d new Buckets while %d resources poll\n", r.newBuckets, res.resources())
	if err := r.createBuckets(ctx); err != nil {
		return err
	}
	readyAt, err := r.tracker.waitPrefix(ctx, r.out, v1alpha1.BucketKind, burstPrefix, r.newBuckets, before.at.Add(r.timeout))
	if err != nil {
		return err
	}
	b := &burstResult{n: r.newBuckets, polling: res.resources(), toReady: readyAt.Sub(before.at)}
	b.local = requestCount{routes: r.local.Counts(), writes: r.local.Writes(), window: time.Since(counting)}
	b.remote = requestCount{routes: r.remote.Counts(), writes: r.remote.Writes(), window: time.Since(counting)}
	after, err := r.snap(ctx)
	if err != nil {
		return err
	}
	b.managed = delta(after.managed, before.managed)
	b.cpu = after.proc.cpu - before.proc.cpu
	b.rssPeak, _ = r.rss.window(before.at, after.at)
	res.burst = b
	fmt.Fprintf(r.out, "  burst: all %d new Buckets Ready in %s\n", r.newBuckets, b.toReady.Round(time.Second))
	return nil
}

// createBuckets creates the burst's Buckets with 16 concurrent clients.
func (r *run) createBuckets(ctx context.Context) error {
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	idx := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range idx {
				b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: benchNS, Name: fmt.Sprintf("%s%04d", burstPrefix, i)}}
				b.Spec.ProviderConfigReference = configRef()
				if err := r.kube.Create(ctx, b); err != nil {
					once.Do(func() { first = errors.Wrapf(err, "cannot create %s", b.Name) })
				}
			}
		})
	}
	for i := range r.newBuckets {
		idx <- i
	}
	close(idx)
	wg.Wait()
	return first
}

// waitPrefix returns when n resources of kind whose names start with prefix
// are Ready, printing progress every 10 seconds, or fails at the deadline.
func (t *tracker) waitPrefix(ctx context.Context, out io.Writer, kind, prefix string, n int, deadline time.Time) (time.Time, error) {
	tick, report := time.NewTicker(100*time.Millisecond), time.Now().Add(10*time.Second)
	defer tick.Stop()
	for {
		ready := t.readyWith(kind, prefix)
		if ready >= n {
			t.mu.Lock()
			defer t.mu.Unlock()
			return t.lastReady, nil
		}
		if time.Now().After(report) {
			fmt.Fprintf(out, "  burst: Ready %s %d/%d\n", kind, ready, n)
			report = time.Now().Add(10 * time.Second)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(time.Until(deadline)):
			return time.Time{}, errors.Errorf("not every new %s became Ready in time (%d/%d)", kind, ready, n)
		case <-tick.C:
		}
	}
}

// readyWith counts the Ready resources of kind whose names start with
// prefix.
func (t *tracker) readyWith(kind, prefix string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := 0
	for key, ready := range t.ready[kind] {
		if ready && strings.HasPrefix(key[strings.IndexByte(key, '/')+1:], prefix) {
			c++
		}
	}
	return c
}

// burstLines describe the burst phase.
func burstLines() []line {
	value := func(f func(*burstResult) string) func(*result) string {
		return func(r *result) string {
			if r.burst == nil {
				return "not run"
			}
			return f(r.burst)
		}
	}
	return []line{
		{"burst: new Buckets created while resources poll", value(func(b *burstResult) string {
			return fmt.Sprintf("%d while %d poll", b.n, b.polling)
		})},
		{"burst: time until all new Buckets Ready", value(func(b *burstResult) string { return secs(b.toReady) })},
		{"burst: reconciles reaching the managed reconciler (new Buckets and polls)", value(func(b *burstResult) string {
			return fmt.Sprintf("%.0f (Bucket %.0f)", sum(b.managed), b.managed[v1alpha1.BucketKind])
		})},
		{"burst: RustFS requests from the first create until all new Buckets Ready", value(func(b *burstResult) string { return b.local.String() })},
		{"burst: tier-target RustFS requests in that time", value(func(b *burstResult) string { return b.remote.String() })},
		{"burst: provider CPU / RSS peak", value(func(b *burstResult) string {
			return fmt.Sprintf("%s / %s", secs(b.cpu), mib(float64(b.rssPeak)))
		})},
	}
}
