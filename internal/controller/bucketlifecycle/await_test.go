package bucketlifecycle

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// byRefs makes the lifecycle name its bucket and its tier through
// references only, as a Tenant does.
func byRefs(cr *v1alpha1.BucketLifecycle) {
	days := int32(30)
	cr.Spec.ForProvider.Bucket = ""
	cr.Spec.ForProvider.BucketRef = &xpv2.NamespacedReference{Name: "data"}
	cr.Spec.ForProvider.Rules = []v1alpha1.LifecycleRule{{ID: "cold", Status: v1alpha1.RuleEnabled,
		Transitions:                  []v1alpha1.Transition{{Days: &days, TierRef: &xpv2.NamespacedReference{Name: "cold"}}},
		NoncurrentVersionTransitions: []v1alpha1.NoncurrentVersionTransition{{NoncurrentDays: 7, TierRef: &xpv2.NamespacedReference{Name: "warm"}}},
	}}
}

// reconciled gives the lifecycle the status its first reconcile leaves.
func reconciled(cr *v1alpha1.BucketLifecycle) {
	cr.SetConditions(xpv2.ReconcileError(context.DeadlineExceeded))
}

// resolved fills in what the references resolve to.
func resolved(cr *v1alpha1.BucketLifecycle) {
	cr.Spec.ForProvider.Bucket = "data-bucket"
	cr.Spec.ForProvider.Rules[0].Transitions[0].StorageClass = "COLD"
	cr.Spec.ForProvider.Rules[0].NoncurrentVersionTransitions[0].StorageClass = "WARM"
}

func readyNow(o interface{ SetConditions(...xpv2.Condition) }) { o.SetConditions(xpv2.Available()) }

// counting is a reconciler that counts the requests it gets.
type counting struct{ n int }

func (c *counting) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	c.n++
	return reconcile.Result{}, nil
}

func TestAwaitingKeepsWaitingLifecyclesFromTheLimiter(t *testing.T) {
	readyTier, readyWarm, readyBucket := tierObject(ns, "cold", "COLD"), tierObject(ns, "warm", "WARM"), bucketObject(ns, "data", "data-bucket")
	for _, o := range []interface{ SetConditions(...xpv2.Condition) }{readyTier, readyWarm, readyBucket} {
		readyNow(o)
	}
	cases := map[string]struct {
		reason string
		cr     *v1alpha1.BucketLifecycle
		others []client.Object
		passed bool
	}{
		"FirstReconcile":   {reason: "A lifecycle never reconciled passes, so that its status says what it waits for.", cr: lifecycle(byRefs), passed: true},
		"BucketNotReady":   {reason: "A waiting lifecycle whose Bucket is not Ready is held back.", cr: lifecycle(byRefs, reconciled), others: []client.Object{readyTier, readyWarm, bucketObject(ns, "data", "data-bucket")}},
		"TierMissing":      {reason: "A waiting lifecycle whose Tier does not exist is held back.", cr: lifecycle(byRefs, reconciled), others: []client.Object{readyBucket, readyWarm}},
		"NoncurrentTier":   {reason: "Noncurrent transitions' Tiers count too.", cr: lifecycle(byRefs, reconciled), others: []client.Object{readyBucket, readyTier}},
		"AllReady":         {reason: "Once every referenced object is Ready the lifecycle passes.", cr: lifecycle(byRefs, reconciled), others: []client.Object{readyBucket, readyTier, readyWarm}, passed: true},
		"AlreadyResolved":  {reason: "Resolved references are not looked at again.", cr: lifecycle(byRefs, reconciled, resolved), passed: true},
		"NoReferences":     {reason: "A lifecycle without references always passes.", cr: lifecycle(reconciled), passed: true},
		"Gone":             {reason: "A request for a deleted lifecycle passes, for the reconciler to finish.", passed: true},
		"BeingDeletedPass": {reason: "A lifecycle being deleted passes: references are not resolved on delete.", cr: lifecycle(byRefs, reconciled, deleting), passed: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs := tc.others
			if tc.cr != nil {
				objs = append(objs, tc.cr)
			}
			inner := &counting{}
			a := &awaiting{kube: fakeKube(t, objs...), inner: inner, poll: time.Hour}
			res, err := a.Reconcile(ctx(t), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: "lifecycle"}})
			if err != nil || (inner.n == 1) != tc.passed {
				t.Errorf("%s\npassed to the managed reconciler: %t (%v); want %t", tc.reason, inner.n == 1, err, tc.passed)
			}
			if !tc.passed && res.RequeueAfter != time.Hour {
				t.Errorf("%s\nheld back with %+v; want a requeue after the poll interval", tc.reason, res)
			}
		})
	}
}

func deleting(cr *v1alpha1.BucketLifecycle) {
	now := metav1.Now()
	cr.DeletionTimestamp = &now
	cr.Finalizers = []string{"finalizer.managedresource.crossplane.io"}
}
