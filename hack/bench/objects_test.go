package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

func TestResourcesReferenceEachOther(t *testing.T) {
	w := world{endpoint: "http://local", remote: "http://remote"}
	objs := resources(w, 7)
	tr, ok1 := objs[0].(*v1alpha1.Tier)
	b, ok2 := objs[1].(*v1alpha1.Bucket)
	l, ok3 := objs[2].(*v1alpha1.BucketLifecycle)
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("resources: got %T, %T, %T; want a Tier, a Bucket and a BucketLifecycle", objs[0], objs[1], objs[2])
	}
	got := []string{
		tr.GetName(), tr.Spec.ForProvider.Name, tr.Spec.ForProvider.Endpoint, tr.Spec.ForProvider.Prefix,
		b.GetName(), l.Spec.ForProvider.BucketRef.Name, l.Spec.ForProvider.Rules[0].Transitions[0].TierRef.Name,
	}
	want := []string{"bench-0007", "BENCH-0007", "http://remote", "bench-0007/", "bench-0007", "bench-0007", "bench-0007"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the i-th resources name each other and the remote: -want +got:\n%s", diff)
	}
	for _, o := range append(objs, setup(w)...) {
		if o.GetNamespace() != benchNS && o.GetNamespace() != systemNS && o.GetNamespace() != "" {
			t.Errorf("%s is in namespace %q", o.GetName(), o.GetNamespace())
		}
	}
}
