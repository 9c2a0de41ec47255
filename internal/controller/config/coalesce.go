package config

import (
	"context"
	"time"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// usageSettle is how long a ProviderConfig waits after a usage event
// before it counts its users: every usage event in that time is counted by
// one pass. Each pass lists the config's usages, so counting after each of
// 1,000 new resources lists usages a thousand times, up to 1,000 each.
const usageSettle = 5 * time.Second

// coalesced is a handler that enqueues what inner enqueues after a delay,
// so that the events that arrive in that time make one request (a delayed
// request already waiting keeps its time).
type coalesced struct {
	inner handler.EventHandler
	after time.Duration
}

type queue = workqueue.TypedRateLimitingInterface[reconcile.Request]

func (c coalesced) Create(ctx context.Context, e event.TypedCreateEvent[client.Object], q queue) {
	c.inner.Create(ctx, e, later{q, c.after})
}

func (c coalesced) Update(ctx context.Context, e event.TypedUpdateEvent[client.Object], q queue) {
	c.inner.Update(ctx, e, later{q, c.after})
}

func (c coalesced) Delete(ctx context.Context, e event.TypedDeleteEvent[client.Object], q queue) {
	c.inner.Delete(ctx, e, later{q, c.after})
}

func (c coalesced) Generic(ctx context.Context, e event.TypedGenericEvent[client.Object], q queue) {
	c.inner.Generic(ctx, e, later{q, c.after})
}

// later is a queue whose Add waits after.
type later struct {
	queue
	after time.Duration
}

func (l later) Add(r reconcile.Request) { l.AddAfter(r, l.after) }
