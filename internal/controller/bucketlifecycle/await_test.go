package bucketlifecycle

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
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

// resolved fills in what the references resolve to.
func resolved(cr *v1alpha1.BucketLifecycle) {
	cr.Spec.ForProvider.Bucket = "data-bucket"
	cr.Spec.ForProvider.Rules[0].Transitions[0].StorageClass = "COLD"
	cr.Spec.ForProvider.Rules[0].NoncurrentVersionTransitions[0].StorageClass = "WARM"
}

// reported gives the lifecycle the wait report for msg at generation gen.
func reported(msg string, gen int64) lcModifier {
	return func(cr *v1alpha1.BucketLifecycle) {
		c := xpv2.Condition{Status: "False", Reason: v1alpha1.ReasonWaitingForReference, Message: msg, ObservedGeneration: gen}
		synced, ready := c, c
		synced.Type, ready.Type = xpv2.TypeSynced, xpv2.TypeReady
		cr.SetConditions(synced, ready)
	}
}

func paused(cr *v1alpha1.BucketLifecycle) {
	meta.AddAnnotations(cr, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
}

func deleting(cr *v1alpha1.BucketLifecycle) {
	now := metav1.Now()
	cr.DeletionTimestamp = &now
	cr.Finalizers = []string{"finalizer.managedresource.crossplane.io"}
}

func readyNow(o interface{ SetConditions(...xpv2.Condition) }) { o.SetConditions(xpv2.Available()) }

// counting is a reconciler that counts the requests it gets.
type counting struct{ n int }

func (c *counting) Reconcile(context.Context, reconcile.Request) (reconcile.Result, error) {
	c.n++
	return reconcile.Result{}, nil
}

// The wait reports of the cases.
const (
	waitCold    = "waiting for Tier cold (tier COLD) to become Ready"
	waitBucket  = "waiting for Bucket data (bucket data-bucket) to become Ready"
	waitWarm    = "waiting for Tier warm to be created and become Ready"
	waitMissing = "waiting for Bucket data to be created and become Ready; Tier cold to be created and become Ready; " +
		"Tier warm to be created and become Ready"
)

// An awaitCase is a lifecycle, the objects it may reference, and what the
// gate does with it: pass it to the managed reconciler, or hold it back
// reporting want, writing the status or not.
type awaitCase struct {
	reason  string
	cr      *v1alpha1.BucketLifecycle
	others  []client.Object
	passed  bool
	want    string
	patched bool
}

func awaitCases() map[string]awaitCase {
	tier, warm, bucket := tierObject(ns, "cold", "COLD"), tierObject(ns, "warm", "WARM"), bucketObject(ns, "data", "data-bucket")
	readyTier, readyWarm, readyBucket := tier.DeepCopy(), warm.DeepCopy(), bucket.DeepCopy()
	for _, o := range []interface{ SetConditions(...xpv2.Condition) }{readyTier, readyWarm, readyBucket} {
		readyNow(o)
	}
	return map[string]awaitCase{
		"FirstReconcile":  {reason: "A new lifecycle whose references do not exist is held back, and says what it waits for.", cr: lifecycle(byRefs), want: waitMissing, patched: true},
		"BucketNotReady":  {reason: "A lifecycle whose Bucket is not Ready is held back.", cr: lifecycle(byRefs), others: []client.Object{readyTier, readyWarm, bucket}, want: waitBucket, patched: true},
		"TierNotReady":    {reason: "A lifecycle whose Tier is not Ready is held back.", cr: lifecycle(byRefs), others: []client.Object{readyBucket, readyWarm, tier}, want: waitCold, patched: true},
		"NoncurrentTier":  {reason: "Noncurrent transitions' Tiers count too.", cr: lifecycle(byRefs), others: []client.Object{readyBucket, readyTier}, want: waitWarm, patched: true},
		"AlreadyReported": {reason: "The same report is not written twice.", cr: lifecycle(byRefs, reported(waitCold, 1)), others: []client.Object{readyBucket, readyWarm, tier}, want: waitCold},
		"NewGeneration":   {reason: "A report of an older generation is written again.", cr: lifecycle(byRefs, reported(waitCold, 1), func(cr *v1alpha1.BucketLifecycle) { cr.Generation = 2 }), others: []client.Object{readyBucket, readyWarm, tier}, want: waitCold, patched: true},
		"AllReady":        {reason: "Once every referenced object is Ready the lifecycle passes.", cr: lifecycle(byRefs, reported(waitCold, 1)), others: []client.Object{readyBucket, readyTier, readyWarm}, passed: true},
		"AlreadyResolved": {reason: "Resolved references are not looked at again.", cr: lifecycle(byRefs, resolved), passed: true},
		"NoReferences":    {reason: "A lifecycle without references always passes.", cr: lifecycle(), passed: true},
		"Gone":            {reason: "A request for a deleted lifecycle passes, for the reconciler to finish.", passed: true},
		"BeingDeleted":    {reason: "A lifecycle being deleted passes: references are not resolved on delete.", cr: lifecycle(byRefs, deleting), passed: true},
		"Paused":          {reason: "A paused lifecycle passes, for the reconciler to report the pause.", cr: lifecycle(byRefs, paused), passed: true},
	}
}

func TestAwaitingHoldsBackAndReportsWaitingLifecycles(t *testing.T) {
	for name, tc := range awaitCases() {
		t.Run(name, func(t *testing.T) {
			objs := tc.others
			if tc.cr != nil {
				objs = append(objs, tc.cr)
			}
			kube, inner := fakeKube(t, objs...), &counting{}
			before := getLifecycle(t, kube)
			res, err := (&awaiting{kube: kube, inner: inner, poll: time.Hour}).Reconcile(ctx(t), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: "lifecycle"}})
			if err != nil || (inner.n == 1) != tc.passed {
				t.Fatalf("%s\npassed to the managed reconciler: %t (%v); want %t", tc.reason, inner.n == 1, err, tc.passed)
			}
			if tc.passed {
				return
			}
			if res.RequeueAfter != time.Hour {
				t.Errorf("%s\nheld back with %+v; want a requeue after the poll interval", tc.reason, res)
			}
			after := getLifecycle(t, kube)
			if patched := after.ResourceVersion != before.ResourceVersion; patched != tc.patched {
				t.Errorf("%s\nstatus written: %t, want %t", tc.reason, patched, tc.patched)
			}
			for _, ct := range []xpv2.ConditionType{xpv2.TypeSynced, xpv2.TypeReady} {
				if c := after.GetCondition(ct); c.Reason != v1alpha1.ReasonWaitingForReference || c.Status != "False" || c.Message != tc.want || c.ObservedGeneration != after.Generation {
					t.Errorf("%s\n%s: got %s/%s %q at generation %d; want False/WaitingForReference %q", tc.reason, ct, c.Status, c.Reason, c.Message, c.ObservedGeneration, tc.want)
				}
			}
		})
	}
}

// getLifecycle returns the stored lifecycle, or an empty one.
func getLifecycle(t *testing.T, kube client.Reader) *v1alpha1.BucketLifecycle {
	t.Helper()
	cr := &v1alpha1.BucketLifecycle{}
	_ = kube.Get(ctx(t), types.NamespacedName{Namespace: ns, Name: "lifecycle"}, cr)
	return cr
}
