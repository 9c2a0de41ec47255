package custody

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/connection"
)

// retainOnly is the management policy set the Retain-only kinds default to.
var retainOnly = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
	xpv2.ManagementActionUpdate, xpv2.ManagementActionLateInitialize}

// answeringReconciler counts the requests passed on to it and answers each
// with res.
type answeringReconciler struct {
	n   int
	res reconcile.Result
}

func (a *answeringReconciler) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	a.n++
	return a.res, nil
}

func paused(t *v1alpha1.Tier) {
	meta.AddAnnotations(t, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
}
func noPolicies(t *v1alpha1.Tier) { t.SetManagementPolicies(xpv2.ManagementPolicies{}) }
func pausedSynced(t *v1alpha1.Tier) {
	t.SetConditions(xpv2.ReconcilePaused().WithObservedGeneration(t.GetGeneration()))
}

// A paused resource is passed on to the managed reconciler (which reports
// ReconcilePaused) whatever the tenancy rules say. When they refuse it, the
// Screen still withdraws its eligibility and calls the Refused hook, but
// leaves its conditions alone and checks it again after the poll interval;
// an admitted paused resource is only passed on. An unpaused resource is
// screened as before.
func TestScreenPaused(t *testing.T) {
	broken := errors.New("connection refused")
	cases := map[string]pausedCase{
		"PausedRefused": {reason: "A refused paused resource loses its eligibility and calls the hook; its conditions stay ReconcilePaused.",
			ns: "team-b", mods: []peerModifier{paused, pausedSynced}, want: reconcile.Result{RequeueAfter: time.Hour},
			wantPassed: 1, wantHook: 1, wantSynced: xpv2.ReasonReconcilePaused},
		"NoPoliciesRefused": {reason: "No management policy pauses a resource too.",
			ns: "team-b", mods: []peerModifier{noPolicies, pausedSynced}, want: reconcile.Result{RequeueAfter: time.Hour},
			wantPassed: 1, wantHook: 1, wantSynced: xpv2.ReasonReconcilePaused},
		"PausedRefusedHookFails": {reason: "The hook's error is returned, for backoff.",
			ns: "team-b", mods: []peerModifier{paused, pausedSynced}, hookErr: broken, wantErr: broken,
			wantPassed: 1, wantHook: 1, wantSynced: xpv2.ReasonReconcilePaused},
		"PausedRefusedThrottled": {reason: "A managed reconciler that has not run yet (rate limited) is tried again at its time.",
			ns: "team-b", mods: []peerModifier{paused, pausedSynced}, inner: reconcile.Result{RequeueAfter: time.Second},
			want: reconcile.Result{RequeueAfter: time.Second}, wantPassed: 1, wantHook: 1, wantSynced: xpv2.ReasonReconcilePaused},
		"PausedAdmitted": {reason: "An admitted paused resource is passed on, and nothing else.",
			ns: "team-a", mods: []peerModifier{paused, pausedSynced}, wantPassed: 1, wantEligible: true, wantSynced: xpv2.ReasonReconcilePaused},
		"Refused": {reason: "An unpaused refused resource is reported, not passed on, and calls the hook.",
			ns: "team-b", want: reconcile.Result{RequeueAfter: time.Hour}, wantHook: 1, wantSynced: v1alpha1.ReasonProviderConfigNotAllowed},
		"Admitted": {reason: "An unpaused admitted resource is passed on, and nothing else.",
			ns: "team-a", wantPassed: 1, wantEligible: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { tc.run(t) })
	}
}

// A pausedCase is one case of TestScreenPaused: a Tier in namespace ns,
// which the Screen's ProviderConfig serves only when it is team-a.
type pausedCase struct {
	reason       string
	ns           string
	mods         []peerModifier
	inner        reconcile.Result
	hookErr      error
	want         reconcile.Result
	wantErr      error
	wantPassed   int
	wantHook     int
	wantEligible bool
	wantSynced   xpv2.ConditionReason
}

func (tc pausedCase) run(t *testing.T) {
	t.Helper()
	cr := peer(tc.ns, "cold", 0, tc.mods...)
	kube := fakeKube(t, cr)
	inner := &answeringReconciler{res: tc.inner}
	s := screen(kube, inner, &connection.Target{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}})
	hook := 0
	s.Refused = func(context.Context, Subject, *connection.Target, *Refusal) error {
		hook++
		return tc.hookErr
	}
	got, err := s.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(cr)})
	if got != tc.want || !errors.Is(err, tc.wantErr) {
		t.Errorf("%s\nReconcile: want %+v, %v; got %+v, %v", tc.reason, tc.want, tc.wantErr, got, err)
	}
	if inner.n != tc.wantPassed || hook != tc.wantHook {
		t.Errorf("%s\npassed on %d times, hook called %d times; want %d and %d", tc.reason, inner.n, hook, tc.wantPassed, tc.wantHook)
	}
	stored := &v1alpha1.Tier{}
	if err := kube.Get(context.Background(), client.ObjectKeyFromObject(cr), stored); err != nil {
		t.Fatal(err)
	}
	if stored.Status.Custody.Eligible != tc.wantEligible {
		t.Errorf("%s\nstored eligibility: want %t, got %t", tc.reason, tc.wantEligible, stored.Status.Custody.Eligible)
	}
	if diff := cmp.Diff(tc.wantSynced, stored.GetCondition(xpv2.TypeSynced).Reason); diff != "" {
		t.Errorf("%s\nstored Synced reason: -want +got:\n%s", tc.reason, diff)
	}
	if tc.wantSynced == xpv2.ReasonReconcilePaused && stored.GetCondition(xpv2.TypeReady).Reason != "" {
		t.Errorf("%s\na paused resource's Ready was written: %+v", tc.reason, stored.GetCondition(xpv2.TypeReady))
	}
}
