package metrics

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// A StateRecorder counts the resources of its kind from the cache, and
// keeps none of them between intervals: a kept list would hold every
// cached object, as it was at the last interval, alive.
func TestStateRecorderRecord(t *testing.T) {
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	ready := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "ready"}}
	ready.SetConditions(xpv2.Available())
	objs := []client.Object{ready, &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "b", Name: "creating"}}}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	r, err := NewStateRecorder(kube, logging.NewNopLogger(), &v1alpha1.BucketList{}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := r.Record(context.Background()); err != nil {
			t.Fatalf("Record(...): %v", err)
		}
	}
	got := map[string]float64{
		"exists": gauge(t, StateMetrics.Exists.WithLabelValues(r.gvk)),
		"ready":  gauge(t, StateMetrics.Ready.WithLabelValues(r.gvk)),
		"kept":   float64(len(r.list.GetItems())),
	}
	want := map[string]float64{"exists": 2, "ready": 1, "kept": 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after two Records (exists, ready: the gauges; kept: items the recorder holds): -want, +got:\n%s", diff)
	}
}

// gauge returns the value of a gauge.
func gauge(t *testing.T, g interface{ Write(*dto.Metric) error }) float64 {
	t.Helper()
	m := &dto.Metric{}
	if err := g.Write(m); err != nil {
		t.Fatal(err)
	}
	return m.GetGauge().GetValue()
}
