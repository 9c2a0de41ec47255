package bucketlifecycle

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

func withTierRef(name string) specModifier {
	return func(r *v1alpha1.LifecycleRule) {
		r.Transitions = append(r.Transitions, v1alpha1.Transition{Days: i32(1), TierRef: &xpv2.NamespacedReference{Name: name}})
	}
}

func withTierSelector() specModifier {
	return func(r *v1alpha1.LifecycleRule) {
		r.NoncurrentVersionTransitions = append(r.NoncurrentVersionTransitions,
			v1alpha1.NoncurrentVersionTransition{NoncurrentDays: 1, TierSelector: &xpv2.NamespacedSelector{}})
	}
}

func TestIndexes(t *testing.T) {
	cr := lifecycle(withRules(specRule("a", withTierRef("cold"), transitionTo("WARM", 3)), specRule("b", withTierSelector())),
		func(cr *v1alpha1.BucketLifecycle) {
			cr.Spec.ForProvider.BucketRef = &xpv2.NamespacedReference{Name: "data"}
		})
	cases := map[string]struct {
		reason string
		fn     func(*v1alpha1.BucketLifecycle) []string
		want   []string
	}{
		"Bucket":         {reason: "The bucket name is indexed.", fn: bucketOf, want: []string{bucketName}},
		"BucketRef":      {reason: "A bucketRef is indexed by namespace and name.", fn: bucketRefsOf, want: []string{ns + "/data"}},
		"TierRefs":       {reason: "tierRefs by name, unresolved selectors by namespace.", fn: tierRefsOf, want: []string{ns + "/*", ns + "/cold"}},
		"StorageClasses": {reason: "Storage classes are indexed without duplicates or blanks.", fn: storageClassesOf, want: []string{"WARM"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.fn(cr)); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func request(namespace, name string) reconcile.Request {
	return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: namespace, Name: name}}
}

func TestMapper(t *testing.T) {
	byRef := lifecycle(withMeta(ns, "by-ref", 0), withRules(specRule("a", withTierRef("cold"))))
	bySelector := lifecycle(withMeta(ns, "by-selector", 0), withRules(specRule("a", withTierSelector())))
	byClass := lifecycle(withMeta("team-b", "by-class", 0), withBucket("other"), withRules(specRule("a", transitionTo("COLD", 1))))
	unrelated := lifecycle(withMeta("team-b", "unrelated", 0), withBucket("other"), withRules(specRule("a", transitionTo("WARM", 1))))
	m := mapper{kube: fakeKube(t, byRef, bySelector, byClass, unrelated)}

	tier := &v1alpha1.Tier{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "cold"}}
	tier.Spec.ForProvider.Name = "COLD"
	bucket := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "data"}}
	meta.SetExternalName(bucket, "other")
	cases := map[string]struct {
		reason string
		got    []reconcile.Request
		want   []reconcile.Request
	}{
		"Tier": {
			reason: "A Tier maps to lifecycles that reference it, select Tiers in its namespace, or name its tier.",
			got:    m.forTier(ctx(t), tier),
			want:   []reconcile.Request{request(ns, "by-ref"), request(ns, "by-selector"), request("team-b", "by-class")},
		},
		"Bucket": {
			reason: "A Bucket maps to lifecycles of its bucket.",
			got:    m.forBucket(ctx(t), bucket),
			want:   []reconcile.Request{request("team-b", "by-class"), request("team-b", "unrelated")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sorted := cmpopts.SortSlices(func(a, b reconcile.Request) bool { return a.String() < b.String() })
			if diff := cmp.Diff(tc.want, tc.got, sorted); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestPredicates(t *testing.T) {
	notReady, ready := &v1alpha1.Tier{}, &v1alpha1.Tier{}
	ready.SetConditions(xpv2.Available())
	deleting := lifecycle()
	now := metav1.Now()
	deleting.DeletionTimestamp = &now
	cases := map[string]struct {
		reason string
		got    bool
		want   bool
	}{
		"BecameReady":     {reason: "A Tier becoming Ready passes.", got: custody.BecameReady().Update(event.UpdateEvent{ObjectOld: notReady, ObjectNew: ready}), want: true},
		"StayedReady":     {reason: "A Ready Tier's other updates do not.", got: custody.BecameReady().Update(event.UpdateEvent{ObjectOld: ready, ObjectNew: ready})},
		"CreatedReady":    {reason: "A Tier Ready when first seen passes.", got: custody.BecameReady().Create(event.CreateEvent{Object: ready}), want: true},
		"CreatedNotReady": {reason: "A Tier not Ready when first seen does not.", got: custody.BecameReady().Create(event.CreateEvent{Object: notReady})},
		"Deleting":        {reason: "A lifecycle being deleted passes.", got: custody.CustodyChanged().Update(event.UpdateEvent{ObjectOld: lifecycle(), ObjectNew: deleting}), want: true},
		"Deleted":         {reason: "A deleted lifecycle passes.", got: custody.CustodyChanged().Delete(event.DeleteEvent{Object: deleting}), want: true},
		"Edited":          {reason: "Other lifecycle updates do not.", got: custody.CustodyChanged().Update(event.UpdateEvent{ObjectOld: lifecycle(), ObjectNew: lifecycle()})},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("%s\nwant %t, got %t", tc.reason, tc.want, tc.got)
			}
		})
	}
}
