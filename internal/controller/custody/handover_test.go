package custody

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// named is a Bucket ns/name of bucket "data", created at t0+age.
func named(ns, name string, age time.Duration) *v1alpha1.Bucket {
	b := bucketIn(ns, name, ns+"/"+name)
	b.CreationTimestamp = metav1.NewTime(t0.Add(age))
	meta.SetExternalName(b, "data")
	return b
}

func TestHandover(t *testing.T) {
	cases := map[string]struct {
		reason string
		others []*v1alpha1.Bucket
		want   v1alpha1.CustodyRecordSpec
	}{
		"OldestOfTheNamespace": {
			reason: "The record passes to the oldest other Bucket of the holder's namespace naming the object.",
			others: []*v1alpha1.Bucket{named("a", "young", 2*time.Hour), named("a", "old", time.Hour), named("b", "older", 0)},
			want: v1alpha1.CustodyRecordSpec{Identity: "deployment:1", Kind: v1alpha1.CustodyBucket, Object: "data",
				Phase: v1alpha1.PhaseCreated, Holder: &v1alpha1.CustodyHolder{Namespace: "a", Name: "old", UID: "a/old"}},
		},
		"ReleasedForTheNamespace": {
			reason: "With no other Bucket in its namespace, the record is Released for it, whatever other namespaces wait.",
			others: []*v1alpha1.Bucket{named("b", "older", 0)},
			want: v1alpha1.CustodyRecordSpec{Identity: "deployment:1", Kind: v1alpha1.CustodyBucket, Object: "data",
				Phase: v1alpha1.PhaseReleased, ReleasedFor: "a"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			holder := named("a", "holder", 30*time.Minute)
			cu := newCustodian(t, append(tc.others, holder)...)
			r, _, err := cu.Hold(ctx, holder, "deployment:1", Claim{Kind: v1alpha1.CustodyBucket, Object: "data"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cu.Mark(ctx, r, holder, v1alpha1.PhaseCreated); err != nil {
				t.Fatal(err)
			}
			f := &releasingFinalizer{custodian: cu, peers: func() client.ObjectList { return &v1alpha1.BucketList{} }}
			if err := cu.Handover(ctx, holder, f.successor); err != nil {
				t.Fatalf("Handover: %v", err)
			}
			got, err := cu.Get(ctx, r.GetName())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got.Spec); diff != "" {
				t.Errorf("%s\nrecord after Handover: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
