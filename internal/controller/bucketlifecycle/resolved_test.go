package bucketlifecycle

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// bySelector makes the lifecycle select its bucket instead of naming it.
func bySelector(cr *v1alpha1.BucketLifecycle) {
	cr.Spec.ForProvider.BucketRef = nil
	cr.Spec.ForProvider.BucketSelector = &xpv2.NamespacedSelector{MatchLabels: map[string]string{"app": "data"}}
}

// selected is what resolving bySelector's selector writes.
func selected(cr *v1alpha1.BucketLifecycle) {
	cr.Spec.ForProvider.Bucket = "data-bucket"
	cr.Spec.ForProvider.BucketRef = &xpv2.NamespacedReference{Name: "data"}
}

func withLabel(cr *v1alpha1.BucketLifecycle) { cr.SetLabels(map[string]string{"team": "a"}) }

func laterDays(cr *v1alpha1.BucketLifecycle) {
	days := int32(60)
	cr.Spec.ForProvider.Rules[0].Transitions[0].Days = &days
}

func otherClass(cr *v1alpha1.BucketLifecycle) {
	cr.Spec.ForProvider.Rules[0].Transitions[0].StorageClass = "OTHER"
}

func ruleAdded(cr *v1alpha1.BucketLifecycle) {
	cr.Spec.ForProvider.Rules = append(cr.Spec.ForProvider.Rules, specRule("expire", expireAfter(30)))
}

func TestNotResolution(t *testing.T) {
	cases := map[string]struct {
		reason   string
		old, new client.Object
		pass     bool
	}{
		"AllResolved":       {reason: "Filling the bucket and storage classes from references is the reconcile's own write.", old: lifecycle(byRefs), new: lifecycle(byRefs, resolved)},
		"BucketResolved":    {reason: "Resolution of the bucket alone is filtered too.", old: lifecycle(byRefs), new: lifecycle(byRefs, withBucket("data-bucket"))},
		"SelectorResolved":  {reason: "A resolved selector fills the value and the reference it selected.", old: lifecycle(byRefs, bySelector), new: lifecycle(byRefs, bySelector, selected)},
		"ResolvedAndEdited": {reason: "A rule changed in the same update is desired state.", old: lifecycle(byRefs), new: lifecycle(byRefs, resolved, laterDays), pass: true},
		"ResolvedAndLabel":  {reason: "A label changed in the same update is desired state.", old: lifecycle(byRefs), new: lifecycle(byRefs, resolved, withLabel), pass: true},
		"BucketRenamed":     {reason: "Changing a bucket that was set is not resolution.", old: lifecycle(withBucket("a")), new: lifecycle(withBucket("b")), pass: true},
		"BucketNamedByUser": {reason: "A bucket set where no reference could resolve it is desired state.", old: lifecycle(withBucket("")), new: lifecycle(withBucket("b")), pass: true},
		"StorageClassSwap":  {reason: "Changing a resolved storage class is not resolution.", old: lifecycle(byRefs, resolved), new: lifecycle(byRefs, resolved, otherClass), pass: true},
		"RuleAdded":         {reason: "A new rule is desired state.", old: lifecycle(byRefs), new: lifecycle(byRefs, resolved, ruleAdded), pass: true},
		"SpecUnchanged":     {reason: "Updates without a spec change are left to the other predicates.", old: lifecycle(byRefs), new: lifecycle(byRefs, withLabel), pass: true},
		"OtherKind":         {reason: "Objects of another kind pass.", old: &v1alpha1.Bucket{}, new: &v1alpha1.Bucket{}, pass: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := notResolution().Update(event.UpdateEvent{ObjectOld: tc.old, ObjectNew: tc.new}); got != tc.pass {
				t.Errorf("%s\nUpdate(...): want %t, got %t", tc.reason, tc.pass, got)
			}
		})
	}
}
