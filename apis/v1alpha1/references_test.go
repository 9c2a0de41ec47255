package v1alpha1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func refIn(ns string) *xpv2.NamespacedReference {
	return &xpv2.NamespacedReference{Name: "x", Namespace: ns}
}

// LocalReferences drops the resource's own namespace, which the resolver
// writes for a resolved selector, from every reference, and keeps any
// other namespace, which admission refuses, for the API server to refuse.
func TestLocalReferences(t *testing.T) {
	cases := map[string]struct {
		reason string
		ref    *xpv2.NamespacedReference
		want   *xpv2.NamespacedReference
	}{
		"OwnNamespace":   {reason: "A selector resolved in the resource's namespace gives a local reference.", ref: refIn("team-a"), want: refIn("")},
		"NoNamespace":    {reason: "A local reference stays local.", ref: refIn(""), want: refIn("")},
		"OtherNamespace": {reason: "Another namespace is kept, for admission to refuse.", ref: refIn("team-b"), want: refIn("team-b")},
		"NoReference":    {reason: "No reference stays none."},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			lc := &v1alpha1.BucketLifecycle{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a"}}
			lc.Spec.ForProvider.BucketRef = clone(tc.ref)
			lc.Spec.ForProvider.Rules = []v1alpha1.LifecycleRule{{ID: "r",
				Transitions:                  []v1alpha1.Transition{{TierRef: clone(tc.ref)}},
				NoncurrentVersionTransitions: []v1alpha1.NoncurrentVersionTransition{{TierRef: clone(tc.ref)}}}}
			lc.LocalReferences()
			ba := &v1alpha1.BucketAccess{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a"}}
			ba.Spec.ForProvider.Buckets = []v1alpha1.BucketGrant{{BucketRef: clone(tc.ref)}}
			ba.LocalReferences()
			r := lc.Spec.ForProvider.Rules[0]
			for field, got := range map[string]*xpv2.NamespacedReference{
				"bucketRef": lc.Spec.ForProvider.BucketRef, "transitions[0].tierRef": r.Transitions[0].TierRef,
				"noncurrentVersionTransitions[0].tierRef": r.NoncurrentVersionTransitions[0].TierRef,
				"BucketAccess buckets[0].bucketRef":       ba.Spec.ForProvider.Buckets[0].BucketRef,
			} {
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("%s\n%s: -want +got:\n%s", tc.reason, field, diff)
				}
			}
		})
	}
}

func clone(r *xpv2.NamespacedReference) *xpv2.NamespacedReference {
	if r == nil {
		return nil
	}
	c := *r
	return &c
}
