package main

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

var benchWorld = world{endpoint: "http://127.0.0.1:1", accessKey: "a", secretKey: "s", remote: "http://remote:2", remoteAccessKey: "ra", remoteSecret: "rs"}

// What the floor run writes is what the provider leaves on a Ready
// resource (from a dump of a normal run): the parts the provider's own
// code reads, which decide whether the objects are comparable.
func TestProvided(t *testing.T) {
	p := newProvided(benchWorld, "d")
	type want struct {
		externalName string
		finalizers   []string
		ready        corev1.ConditionStatus
		custody      string // the custody record's object
		conditions   int
	}
	cases := map[string]struct {
		reason string
		obj    client.Object
		want   want
	}{
		"Tier": {reason: "A Tier's external name is its tier name; it has four conditions.", obj: resources(benchWorld, 7)[0],
			want: want{externalName: "BENCH-0007", finalizers: []string{"finalizer.managedresource.crossplane.io"}, ready: corev1.ConditionTrue, custody: "BENCH-0007", conditions: 4}},
		"Bucket": {reason: "A Bucket's external name is its name.", obj: resources(benchWorld, 7)[1],
			want: want{externalName: "bench-0007", finalizers: []string{"finalizer.managedresource.crossplane.io"}, ready: corev1.ConditionTrue, custody: "bench-0007", conditions: 3}},
		"BucketLifecycle": {reason: "A BucketLifecycle has no external name; its custody names its bucket.", obj: resources(benchWorld, 7)[2],
			want: want{finalizers: []string{"finalizer.managedresource.crossplane.io"}, ready: corev1.ConditionTrue, custody: "bench-0007", conditions: 3}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p.prepare(tc.obj)
			p.ready(tc.obj)
			c, ok := tc.obj.(conditioned)
			if !ok {
				t.Fatalf("%T has no conditions", tc.obj)
			}
			got := want{externalName: meta.GetExternalName(tc.obj), finalizers: tc.obj.GetFinalizers(), ready: c.GetCondition(xpv2.TypeReady).Status}
			type custodied interface{ GetCustody() *v1alpha1.Custody }
			got.custody = tc.obj.(custodied).GetCustody().Object
			b, err := json.Marshal(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			var status struct {
				Status struct{ Conditions []any } `json:"status"`
			}
			if err := json.Unmarshal(b, &status); err != nil {
				t.Fatal(err)
			}
			got.conditions = len(status.Status.Conditions)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestProvidedLifecycleResolvesItsReferences(t *testing.T) {
	l := resources(benchWorld, 12)[2].(*v1alpha1.BucketLifecycle)
	newProvided(benchWorld, "d").prepare(l)
	got := []string{l.Spec.ForProvider.Bucket, l.Spec.ForProvider.Rules[0].Transitions[0].StorageClass}
	if diff := cmp.Diff([]string{"bench-0012", "BENCH-0012"}, got); diff != "" {
		t.Errorf("the references resolved as the provider resolves them: -want +got:\n%s", diff)
	}
}

func TestUsage(t *testing.T) {
	b := resources(benchWorld, 3)[1]
	b.SetUID(types.UID("uid-3"))
	got := usage(b, v1alpha1.BucketGroupVersionKind)
	if got.Name != "uid-3" || got.Namespace != benchNS {
		t.Errorf("usage name: got %s/%s, want %s/uid-3 (the provider names a usage by its resource's UID)", got.Namespace, got.Name, benchNS)
	}
	wantRef := []metav1.OwnerReference{{APIVersion: "rustfs.m.crossplane.io/v1alpha1", Kind: "Bucket", Name: "bench-0003", UID: "uid-3",
		Controller: new(true), BlockOwnerDeletion: new(true)}}
	if diff := cmp.Diff(wantRef, got.OwnerReferences); diff != "" {
		t.Errorf("owner: -want +got:\n%s", diff)
	}
	wantLabels := map[string]string{"crossplane.io/provider-config": "bench", "crossplane.io/provider-config-kind": "ClusterProviderConfig"}
	if diff := cmp.Diff(wantLabels, got.Labels); diff != "" {
		t.Errorf("labels, which the ProviderConfig controllers count users by: -want +got:\n%s", diff)
	}
}

func TestSizeOf(t *testing.T) {
	withFields := v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Name: "b", ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}}}}
	plain := v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Name: "b"}}
	one, err := json.Marshal(&plain)
	if err != nil {
		t.Fatal(err)
	}
	record := v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Spec: v1alpha1.CustodyRecordSpec{Identity: "id", Kind: v1alpha1.CustodyBucket, Object: "b"}}
	rec, err := json.Marshal(&record)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		list   client.ObjectList
		want   objectSize
	}{
		"Empty":                {reason: "No objects, no bytes.", list: &v1alpha1.BucketList{}, want: objectSize{}},
		"ManagedFieldsDropped": {reason: "The caches strip managed fields, so the sizes leave them out.", list: &v1alpha1.BucketList{Items: []v1alpha1.Bucket{withFields, plain}}, want: objectSize{count: 2, bytes: 2 * len(one)}},
		"CustodyRecords":       {reason: "Custody records are measured like the managed kinds.", list: &v1alpha1.CustodyRecordList{Items: []v1alpha1.CustodyRecord{record}}, want: objectSize{count: 1, bytes: len(rec)}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := sizeOf(tc.list)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(objectSize{})); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
	if _, err := sizeOf(&v1alpha1.ProviderConfigList{}); err == nil {
		t.Error("sizeOf of a list it does not know: want an error")
	}
}
