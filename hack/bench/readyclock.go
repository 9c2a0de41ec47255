package main

import (
	"context"
	"sort"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

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
