package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// kinds are the managed resource kinds the benchmark creates, in the
// order it reports them.
var kinds = []string{v1alpha1.TierKind, v1alpha1.BucketKind, v1alpha1.BucketLifecycleKind}

// A tracker watches the benchmark's managed resources through informers
// and notes when all of them are Ready.
type tracker struct {
	want int // per kind

	mu      sync.Mutex
	ready   map[string]map[string]bool // kind → namespace/name → Ready
	readyAt time.Time
	// lastReady is when a resource last turned Ready; lastOf, by kind.
	lastReady time.Time
	lastOf    map[string]time.Time
	done      chan struct{}
}

type conditioned interface {
	client.Object
	GetCondition(xpv2.ConditionType) xpv2.Condition
}

// track starts informers for the three kinds in the benchmark namespace.
func track(ctx context.Context, cfg *rest.Config, s *kruntime.Scheme, want int) (*tracker, error) {
	c, err := cache.New(cfg, cache.Options{Scheme: s, DefaultNamespaces: map[string]cache.Config{benchNS: {}}})
	if err != nil {
		return nil, errors.Wrap(err, "cannot create the benchmark's cache")
	}
	t := &tracker{want: want, ready: map[string]map[string]bool{}, lastOf: map[string]time.Time{}, done: make(chan struct{})}
	for i, o := range []client.Object{&v1alpha1.Tier{}, &v1alpha1.Bucket{}, &v1alpha1.BucketLifecycle{}} {
		t.ready[kinds[i]] = map[string]bool{}
		inf, err := c.GetInformer(ctx, o)
		if err != nil {
			return nil, errors.Wrapf(err, "cannot watch %ss", kinds[i])
		}
		kind := kinds[i]
		if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
			AddFunc:    func(o any) { t.observe(kind, o) },
			UpdateFunc: func(_, o any) { t.observe(kind, o) },
		}); err != nil {
			return nil, errors.Wrapf(err, "cannot watch %ss", kinds[i])
		}
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		return nil, errors.New("the benchmark's cache did not sync")
	}
	return t, nil
}

// observe records whether o is Ready, and the moment all are.
func (t *tracker) observe(kind string, obj any) {
	o, ok := obj.(conditioned)
	if !ok {
		return
	}
	ready := o.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue
	key := o.GetNamespace() + "/" + o.GetName()
	t.mu.Lock()
	defer t.mu.Unlock()
	if ready && !t.ready[kind][key] {
		t.lastReady = time.Now()
		t.lastOf[kind] = t.lastReady
	}
	t.ready[kind][key] = ready
	if t.readyAt.IsZero() && t.count() >= len(kinds)*t.want {
		t.readyAt = time.Now()
		close(t.done)
	}
}

// count returns how many resources are Ready; t.mu must be held.
func (t *tracker) count() int {
	n := 0
	for _, m := range t.ready {
		for _, r := range m {
			if r {
				n++
			}
		}
	}
	return n
}

// progress returns "Ready: Tier a/N, Bucket b/N, BucketLifecycle c/N".
func (t *tracker) progress() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := "Ready:"
	for i, k := range kinds {
		n := 0
		for _, r := range t.ready[k] {
			if r {
				n++
			}
		}
		s += fmt.Sprintf("%s %s %d/%d", map[bool]string{true: ",", false: ""}[i > 0], k, n, t.want)
	}
	return s
}

// wait returns when every resource is Ready, printing progress every 10
// seconds, or fails at the deadline.
func (t *tracker) wait(ctx context.Context, out io.Writer, deadline time.Time) (time.Time, error) {
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-t.done:
			t.mu.Lock()
			defer t.mu.Unlock()
			return t.readyAt, nil
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(time.Until(deadline)):
			return time.Time{}, errors.Errorf("not every resource became Ready in time (%s)", t.progress())
		case <-tick.C:
			fmt.Fprintf(out, "  %s\n", t.progress())
		}
	}
}

// kindsReady returns, by kind, how long after start its last resource
// turned Ready.
func (t *tracker) kindsReady(start time.Time) map[string]time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]time.Duration{}
	for k, at := range t.lastOf {
		out[k] = at.Sub(start)
	}
	return out
}
