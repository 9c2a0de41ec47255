package options

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	changelogs "github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
)

// fakeManaged answers like crossplane-runtime's managed reconciler: it
// creates, logs the change (Writes, as the managed reconciler logs every
// create), then asks to be requeued at once whether or not the create
// succeeded.
type fakeManaged struct {
	createErr error
}

func (f fakeManaged) Reconcile(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
	_ = Writes{}.Log(ctx, nil, changelogs.OperationType_OPERATION_TYPE_CREATE, f.createErr, nil)
	//lint:ignore SA1019 crossplane-runtime's managed reconciler asks for the observe after a create with Requeue.
	return reconcile.Result{Requeue: true}, nil
}

// delay is how long controller-runtime waits before it reconciles req
// again after res and err, with the controllers' rate limiter rl: the
// switch of reconcileHandler in controller-runtime's
// pkg/internal/controller/controller.go (v0.23).
func delay(rl ratelimiter.ControllerRateLimiter, req reconcile.Request, res reconcile.Result, err error) time.Duration {
	switch {
	case err != nil:
		return rl.When(req)
	case res.RequeueAfter > 0:
		rl.Forget(req)
		return res.RequeueAfter
	//lint:ignore SA1019 crossplane-runtime's managed reconciler asks for the observe after a create with Requeue.
	case res.Requeue:
		return rl.When(req)
	}
	rl.Forget(req)
	return 0
}

// The observe after a successful create waits the base delay however often
// the create failed before; a failed create still backs off.
func TestCreatedRequeueIgnoresEarlierFailures(t *testing.T) {
	refused := errors.New("RustFS refused the add")
	cases := map[string]struct {
		reason   string
		failures int
		err      error
		want     []time.Duration
	}{
		"CreatedFirstTime": {
			reason: "a create that succeeds at once is observed after the base delay, and so again",
			want:   []time.Duration{time.Second, time.Second},
		},
		"CreatedAfterRefusals": {
			reason:   "after seven refused adds (a backoff of a minute) a successful add is observed after the base delay",
			failures: 7,
			want:     []time.Duration{time.Second, time.Second},
		},
		"StillRefused": {
			reason:   "a refused add keeps backing off",
			failures: 3,
			err:      refused,
			want:     []time.Duration{8 * time.Second, 16 * time.Second},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rl := ratelimiter.NewController()
			req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "tier"}}
			for range tc.failures {
				rl.When(req)
			}
			r := NewLimiter(100).Reconciler(testController, fakeManaged{createErr: tc.err})
			var got []time.Duration
			for range 2 {
				res, err := r.Reconcile(context.Background(), req)
				got = append(got, delay(rl, req, res, err))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ndelays -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// A pass that wrote asks for its follow-up with RequeueAfter, which makes
// controller-runtime's queue forget the item's failure backoff: the
// observe after a create that earlier refusals delayed comes a second
// later, not a minute. A pass that did not write keeps its answer.
func TestFollowUpForgetsBackoff(t *testing.T) {
	//lint:ignore SA1019 crossplane-runtime's managed reconciler answers a create with Requeue.
	requeue := reconcile.Result{Requeue: true}
	cases := map[string]struct {
		wrote     bool
		changeErr error
		err       error
		want      reconcile.Result
	}{
		"ChangeFailed":    {wrote: true, changeErr: errBoom, want: requeue},
		"Wrote":           {wrote: true, want: reconcile.Result{RequeueAfter: followUpAfter}},
		"DidNotWrite":     {want: requeue},
		"WroteThenFailed": {wrote: true, err: errBoom, want: requeue},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			inner := reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
				if tc.wrote {
					_ = Writes{}.Log(ctx, nil, changelogs.OperationType_OPERATION_TYPE_UPDATE, tc.changeErr, nil)
				}
				return requeue, tc.err
			})
			got, _ := NewLimiter(10).Reconciler(testController, inner).Reconcile(context.Background(), request("a"))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Reconcile(): -want, +got:\n%s", diff)
			}
		})
	}
}

var errBoom = errors.New("boom")
