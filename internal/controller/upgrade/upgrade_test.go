package upgrade

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
)

var t0 = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// bucket is a Bucket ns/name created at t0+age whose v0.2 status claims
// bucket "data" on deployment:1 as acquired.
func bucket(ns, name string, age time.Duration, acquired v1alpha1.Acquisition) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(ns + "/" + name),
		CreationTimestamp: metav1.NewTime(t0.Add(age))}}
	b.SetCustody(&v1alpha1.Custody{Identity: "deployment:1", Object: "data", Acquired: acquired})
	return b
}

// want is the record Run makes of bucket "data".
type want struct {
	Holder string
	Phase  v1alpha1.CustodyPhase
}

func TestRun(t *testing.T) {
	cases := map[string]struct {
		reason  string
		buckets []*v1alpha1.Bucket
		want    *want
	}{
		"OneNamespace": {
			reason:  "Claims of one namespace make its oldest claimant the holder.",
			buckets: []*v1alpha1.Bucket{bucket("a", "young", time.Hour, v1alpha1.AcquiredCreated), bucket("a", "old", 0, v1alpha1.AcquiredAdopted)},
			want:    &want{Holder: "a/old", Phase: v1alpha1.PhaseAdopted},
		},
		"TwoNamespaces": {
			reason:  "Claims of two namespaces make a Disputed record with no holder.",
			buckets: []*v1alpha1.Bucket{bucket("a", "one", 0, v1alpha1.AcquiredCreated), bucket("b", "two", time.Hour, v1alpha1.AcquiredAdopted)},
			want:    &want{Phase: v1alpha1.PhaseDisputed},
		},
		"NoAcquisition": {
			reason:  "Proven access or an intent to create claims nothing.",
			buckets: []*v1alpha1.Bucket{bucket("a", "one", 0, ""), bucket("b", "two", 0, v1alpha1.AcquiredCreating)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			store := storeWith(t, tc.buckets)
			ctx := context.Background()
			if err := Run(ctx, store); err != nil {
				t.Fatalf("Run: %v", err)
			}
			r, err := store.Get(ctx, v1alpha1.CustodyRecordName("deployment:1", v1alpha1.CustodyBucket, "data"))
			if err != nil {
				t.Fatal(err)
			}
			var got *want
			if r != nil {
				got = &want{Phase: r.Spec.Phase}
				if h := r.Spec.Holder; h != nil {
					got.Holder = h.Namespace + "/" + h.Name
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nrecord: -want, +got:\n%s", tc.reason, diff)
			}
			if m, err := store.Get(ctx, Marker); err != nil || m == nil {
				t.Errorf("marker: %v, %v; want it created", m, err)
			}
		})
	}
}

// storeWith returns a Store of a fake API server that holds buckets.
func storeWith(t *testing.T, buckets []*v1alpha1.Bucket) custody.Store {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	objs := make([]client.Object, len(buckets))
	for i, b := range buckets {
		objs[i] = b
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).WithStatusSubresource(objs...).Build()
	return custody.Store{Kube: kube, Reader: kube}
}
