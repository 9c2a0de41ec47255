package options

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The causes of a pass, as rustfs_managed_reconciles_total labels them.
const (
	causeEvent    = "event"
	causeFollowUp = "follow-up"
	causePoll     = "poll"
)

// pollTolerance is how early before its poll is due a request still counts
// as the poll: controller-runtime adds a RequeueAfter request a little
// after the reconcile returns, never before.
const pollTolerance = time.Second

// followUpAfter is when the observe that follows a write comes: about when
// the write's status update has reached the cache, and what
// crossplane-runtime's queue waits before a first retry.
const followUpAfter = time.Second

// sweepEvery is how often the limiter forgets the polls of resources that
// never came back (deleted while waiting), and how overdue they must be.
const sweepEvery = 10 * time.Minute

// A Limiter admits reconciles to the managed reconcilers of every
// controller at no more than its rate per second (a token bucket with a
// burst of ten seconds, as crossplane-runtime's ratelimiter.NewGlobal), and
// serves the reconciles that follow an event before the polls:
//
//   - A request that follows an event (a create or a spec change, a retry
//     after an error) reserves the next token, waits for it outside the
//     queue (RequeueAfter) and passes until its turn comes: one token per
//     reconcile, as crossplane-runtime's ratelimiter.Reconciler.
//   - A follow-up (the observe after a pass that wrote to RustFS: a create,
//     an update or a delete that succeeded, see Writes) passes at once
//     without a token: the write's token paid for it, as the write proved
//     what the observe confirms. It comes followUpAfter after the write
//     instead of after the queue's per-item failure backoff, which earlier
//     refusals of the same resource may have grown to a minute.
//   - A poll (the request a reconciler asked for with RequeueAfter, arriving
//     when due) passes only when a token is free now and no event's
//     reservation is waiting for one. Otherwise it is sent back without
//     taking a token, to return when the polls waiting before it have had
//     theirs.
//
// Every other reconcile that reaches a managed reconciler takes exactly
// one token, so the rate stays what --max-reconcile-rate says; when the
// rate cannot poll every resource each poll interval, the polls stretch and
// the new work does not wait behind them.
type Limiter struct {
	limit *rate.Limiter
	rps   float64
	now   func() time.Time

	mu        sync.Mutex
	granted   map[string]time.Time // requests that reserved a token, and their turn
	followUps map[string]time.Time // items whose next request is a follow-up, since when
	due       map[string]time.Time // when each item's requested poll is due
	waiting   map[string]struct{}  // polls sent back without a token
	nextSweep time.Time
}

// NewLimiter returns a Limiter of rps reconciles per second.
func NewLimiter(rps int) *Limiter {
	if rps < 1 {
		rps = 1
	}
	return &Limiter{
		limit: rate.NewLimiter(rate.Limit(rps), rps*10), rps: float64(rps), now: time.Now,
		granted: map[string]time.Time{}, followUps: map[string]time.Time{}, due: map[string]time.Time{}, waiting: map[string]struct{}{},
	}
}

// Reconciler returns inner, admitted by l. The name keeps the requests of
// different controllers apart and labels rustfs_managed_reconciles_total.
func (l *Limiter) Reconciler(name string, inner reconcile.Reconciler) reconcile.Reconciler {
	deferredReconciles.WithLabelValues(name) // served from the start, at zero
	return &limited{name: name, inner: inner, limit: l}
}

// Background returns inner, admitted by l as if every request were a poll:
// it passes only when a token is free and no other reconcile waits for
// one. It is for bookkeeping that never reaches RustFS (the ProviderConfig
// usage counts), which then never delays a create, its follow-up observe
// or a change, and still takes a token when it runs.
func (l *Limiter) Background(name string, inner reconcile.Reconciler) reconcile.Reconciler {
	deferredReconciles.WithLabelValues(name)
	return &limited{name: name, inner: inner, limit: l, background: true}
}

// A limited reconciler passes the requests its Limiter admits to inner.
type limited struct {
	name       string
	inner      reconcile.Reconciler
	limit      *Limiter
	background bool
}

// Reconcile passes req to the inner reconciler when the limiter admits it,
// and otherwise asks to be called again when it will.
func (r *limited) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	item := r.name + req.String()
	d, cause := r.limit.admit(item, r.background)
	if d > 0 {
		deferredReconciles.WithLabelValues(r.name).Inc()
		return reconcile.Result{RequeueAfter: d}, nil
	}
	managedReconciles.WithLabelValues(r.name, cause).Inc()
	p := &pass{}
	res, err := r.inner.Reconcile(context.WithValue(ctx, passKey{}, p), req)
	//lint:ignore SA1019 crossplane-runtime's managed reconciler asks for the observe after a write with Requeue.
	followUp := p.wrote && err == nil && res.Requeue
	if followUp {
		res = reconcile.Result{RequeueAfter: followUpAfter}
	}
	r.limit.done(item, followUp, res, err)
	return res, err
}

// admit returns zero when item may pass now, or how long it must wait, and
// the cause of the pass (causeEvent, causeFollowUp, causePoll). A
// background item is always admitted as a poll.
func (l *Limiter) admit(item string, background bool) (time.Duration, string) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if background {
		return l.admitPoll(item, now), causePoll
	}
	if at, ok := l.granted[item]; ok {
		if now.Before(at) {
			return at.Sub(now), causeEvent // it came early
		}
		delete(l.granted, item)
		return 0, causeEvent
	}
	if _, ok := l.followUps[item]; ok {
		delete(l.followUps, item)
		delete(l.due, item)
		return 0, causeFollowUp
	}
	if due, ok := l.due[item]; ok && !now.Before(due.Add(-pollTolerance)) {
		return l.admitPoll(item, now), causePoll
	}
	delete(l.due, item)
	delete(l.waiting, item)
	return l.reserve(item, now), causeEvent
}

// reserve takes the next token for item, now or in its turn.
func (l *Limiter) reserve(item string, now time.Time) time.Duration {
	d := l.limit.ReserveN(now, 1).DelayFrom(now)
	if d > 0 {
		l.granted[item] = now.Add(d)
	}
	return d
}

// admitPoll passes a poll when a token is free and no reservation waits,
// and otherwise sends it back, without a token, for about as long as the
// polls waiting with it need at the full rate.
func (l *Limiter) admitPoll(item string, now time.Time) time.Duration {
	if l.limit.TokensAt(now) >= 1 && l.limit.AllowN(now, 1) {
		delete(l.due, item)
		delete(l.waiting, item)
		return 0
	}
	l.waiting[item] = struct{}{}
	d := time.Duration(float64(len(l.waiting)) / l.rps * float64(time.Second))
	return max(d, 100*time.Millisecond)
}

// done records when the poll a pass asked for is due, and that the next
// request after a pass that wrote and asked to observe is its follow-up.
func (l *Limiter) done(item string, followUp bool, res reconcile.Result, err error) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.due, item)
	switch {
	case followUp:
		l.followUps[item] = now
	case err == nil && res.RequeueAfter > 0:
		l.due[item] = now.Add(res.RequeueAfter)
	}
	if now.After(l.nextSweep) {
		l.sweep(now)
	}
}

// sweep forgets the polls, grants and follow-ups overdue by more than
// sweepEvery: their resources were deleted, or their requests were served
// from elsewhere.
func (l *Limiter) sweep(now time.Time) {
	for item, due := range l.due {
		if now.Sub(due) > sweepEvery {
			delete(l.due, item)
			delete(l.waiting, item)
		}
	}
	for item, at := range l.granted {
		if now.Sub(at) > sweepEvery {
			delete(l.granted, item)
		}
	}
	for item, since := range l.followUps {
		if now.Sub(since) > sweepEvery {
			delete(l.followUps, item)
		}
	}
	l.nextSweep = now.Add(sweepEvery)
}

// When, Forget and NumRequeues make l a crossplane-runtime
// ratelimiter.RateLimiter, so that anything given the controller options'
// GlobalRateLimiter shares l's tokens. Such callers reserve as events do.
func (l *Limiter) When(item string) time.Duration {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit.ReserveN(now, 1).DelayFrom(now)
}

// Forget does nothing: l keeps no per-item backoff.
func (l *Limiter) Forget(string) {}

// NumRequeues is always zero: l keeps no per-item backoff.
func (l *Limiter) NumRequeues(string) int { return 0 }
