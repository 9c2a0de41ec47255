package custody

import (
	"context"
	"errors"
	"testing"
	"time"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// countingReconciler counts the requests passed on to it.
type countingReconciler struct{ n int }

func (c *countingReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	c.n++
	return reconcile.Result{}, nil
}

// A refused resource is reported and checked again after the poll
// interval, never passed on (no token of the rate limiter, no backoff); an
// admitted one is passed on.
func TestScreen(t *testing.T) {
	teamA := &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	cases := map[string]struct {
		reason     string
		ns         string
		wantPassed int
		wantReason xpv2.ConditionReason
	}{
		"Admitted": {reason: "A selected namespace's resource is reconciled.", ns: "team-a", wantPassed: 1},
		"Refused": {reason: "Another namespace's resource is reported, not reconciled.", ns: "team-b",
			wantReason: v1alpha1.ReasonProviderConfigNotAllowed},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cr := peer(tc.ns, "cold", 0)
			kube := fakeKube(t, cr)
			inner := &countingReconciler{}
			s := screen(kube, inner, &connection.Target{NamespaceSelector: teamA})
			for range 2 {
				res, err := s.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(cr)})
				if err != nil || (tc.wantPassed == 0 && res.RequeueAfter != time.Hour) {
					t.Fatalf("%s\nReconcile(...): %+v, %v; want a recheck after the poll interval", tc.reason, res, err)
				}
			}
			if inner.n != 2*tc.wantPassed {
				t.Errorf("%s\nrequests passed on: want %d, got %d", tc.reason, 2*tc.wantPassed, inner.n)
			}
			got := &v1alpha1.Tier{}
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(cr), got); err != nil {
				t.Fatal(err)
			}
			if tc.wantReason == "" {
				return
			}
			for _, ct := range []xpv2.ConditionType{xpv2.TypeReady, xpv2.TypeSynced} {
				if c := got.GetCondition(ct); c.Status != "False" || c.Reason != tc.wantReason {
					t.Errorf("%s\n%s: want False/%s, got %s/%s", tc.reason, ct, tc.wantReason, c.Status, c.Reason)
				}
			}
			if got.Status.Custody.Eligible {
				t.Errorf("%s\na refused resource must not stay eligible", tc.reason)
			}
		})
	}
}

// screen returns a Screen of Tiers whose ProviderConfig is t, in front of
// inner; namespace team-a is labelled team=a.
func screen(kube client.Client, inner reconcile.Reconciler, t *connection.Target) *Screen {
	return &Screen{
		Kube: kube, Inner: inner, Poll: time.Hour,
		New:   func() Subject { return &v1alpha1.Tier{} },
		Names: func(Subject) Names { return Names{} },
		Gate: &Gate{Kube: kube, Namespaces: namespaceLabels{labels: map[string]map[string]string{"team-a": {"team": "a"}}},
			Target: func(context.Context, resource.ModernManaged) (*connection.Target, error) { return t, nil }},
	}
}

// After its report, a front reconciler checks again after the poll
// interval; a conflict is tried again soon, and any other failure of the
// report is returned.
func TestRequeue(t *testing.T) {
	gr := schema.GroupResource{Group: v1alpha1.Group, Resource: "tiers"}
	broken := errors.New("connection refused")
	cases := map[string]struct {
		reason  string
		err     error
		want    reconcile.Result
		wantErr error
	}{
		"Reported":  {reason: "A report written is checked again after the poll interval.", want: reconcile.Result{RequeueAfter: time.Hour}},
		"Conflict":  {reason: "A stale cache is tried again after a second.", err: kerrors.NewConflict(gr, "cold", broken), want: reconcile.Result{RequeueAfter: time.Second}},
		"Gone":      {reason: "A resource deleted meanwhile is no error.", err: kerrors.NewNotFound(gr, "cold"), want: reconcile.Result{RequeueAfter: time.Hour}},
		"OtherFail": {reason: "Any other failure is returned, for backoff.", err: broken, wantErr: broken},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Requeue(tc.err, time.Hour)
			if got != tc.want || !errors.Is(err, tc.wantErr) {
				t.Errorf("%s\nRequeue(%v, 1h): want %+v, %v; got %+v, %v", tc.reason, tc.err, tc.want, tc.wantErr, got, err)
			}
		})
	}
}

// The Refused hook is called with a refused resource, its target and the
// refusal, after the report, on every pass; never for an admitted one. Its
// error is returned, for backoff.
func TestScreenRefusedHook(t *testing.T) {
	teamA := &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	broken := errors.New("connection refused")
	cases := map[string]struct {
		reason    string
		ns        string
		hookErr   error
		wantCalls int
		wantErr   error
	}{
		"Admitted": {reason: "An admitted resource is passed on; the hook is not called.", ns: "team-a"},
		"Refused":  {reason: "A refused resource calls the hook on each pass.", ns: "team-b", wantCalls: 2},
		"Failed":   {reason: "The hook's error is returned.", ns: "team-b", hookErr: broken, wantCalls: 2, wantErr: broken},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cr := peer(tc.ns, "cold", 0)
			kube := fakeKube(t, cr)
			target := &connection.Target{NamespaceSelector: teamA}
			s := screen(kube, &countingReconciler{}, target)
			calls := 0
			s.Refused = func(_ context.Context, got Subject, gotTarget *connection.Target, r *Refusal) error {
				calls++
				if got.GetName() != cr.GetName() || gotTarget != target || r.Reason != v1alpha1.ReasonProviderConfigNotAllowed {
					t.Errorf("%s\nhook called with %s, %p, %+v", tc.reason, got.GetName(), gotTarget, r)
				}
				if c := got.GetCondition(xpv2.TypeReady); c.Reason != v1alpha1.ReasonProviderConfigNotAllowed {
					t.Errorf("%s\nthe hook ran before the report: Ready %s", tc.reason, c.Reason)
				}
				return tc.hookErr
			}
			for range 2 {
				_, err := s.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(cr)})
				if !errors.Is(err, tc.wantErr) {
					t.Errorf("%s\nReconcile: want %v, got %v", tc.reason, tc.wantErr, err)
				}
			}
			if calls != tc.wantCalls {
				t.Errorf("%s\nhook calls: want %d, got %d", tc.reason, tc.wantCalls, calls)
			}
		})
	}
}
