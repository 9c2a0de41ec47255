package metrics

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache/informertest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllertest"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// storeInformers hands out one informer for every kind.
type storeInformers struct {
	informertest.FakeInformers
	informer cache.Informer
}

func (s *storeInformers) GetInformer(context.Context, client.Object, ...cache.InformerGetOption) (cache.Informer, error) {
	return s.informer, nil
}

// storeInformer is an informer whose store holds what a test put there.
type storeInformer struct {
	controllertest.FakeInformer
	store toolscache.Store
}

func (s *storeInformer) GetStore() toolscache.Store { return s.store }

// bucket returns a Bucket in the informer's store with conditions cs.
func bucket(name string, cs ...xpv2.Condition) *v1alpha1.Bucket {
	b := &v1alpha1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: name}}
	b.SetConditions(cs...)
	return b
}

// inConflict is a True BucketConflict condition.
var inConflict = xpv2.Condition{Type: v1alpha1.TypeBucketConflict, Status: corev1.ConditionTrue, Reason: v1alpha1.ReasonBucketConflict}

// A StateRecorder counts the resources of its kind in the informer's
// store, each as the store holds it.
func TestStateRecorderRecord(t *testing.T) {
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason   string
		informer cache.Informer
		want     map[string]float64
		wantErr  bool
	}{
		"Counts": {
			reason: "Every object in the store counts as existing, and as Ready, Synced or in conflict when that condition is True.",
			informer: &storeInformer{store: stored(t,
				bucket("ready", xpv2.Available(), xpv2.ReconcileSuccess()),
				bucket("creating", xpv2.Creating()),
				bucket("conflict", inConflict, xpv2.ReconcileSuccess()))},
			want: map[string]float64{"exists": 3, "ready": 1, "synced": 2, "conflict": 1},
		},
		"NoStore": {
			reason:   "An informer that shows no store is an error, not a count of zero.",
			informer: &controllertest.FakeInformer{},
			wantErr:  true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r, err := NewStateRecorder(&storeInformers{informer: tc.informer}, s, logging.NewNopLogger(), &v1alpha1.Bucket{}, time.Hour, v1alpha1.TypeBucketConflict)
			if err != nil {
				t.Fatal(err)
			}
			err = r.Record(context.Background())
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nRecord(...): want error %t, got %v", tc.reason, tc.wantErr, err)
			}
			if tc.wantErr {
				return
			}
			got := map[string]float64{
				"exists":   gauge(t, StateMetrics.Exists.WithLabelValues(r.gvk)),
				"ready":    gauge(t, StateMetrics.Ready.WithLabelValues(r.gvk)),
				"synced":   gauge(t, StateMetrics.Synced.WithLabelValues(r.gvk)),
				"conflict": gauge(t, conditionTrue.WithLabelValues(r.gvk, string(v1alpha1.TypeBucketConflict))),
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ngauges: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// stored returns a store holding objs.
func stored(t *testing.T, objs ...client.Object) toolscache.Store {
	t.Helper()
	s := toolscache.NewStore(toolscache.MetaNamespaceKeyFunc)
	for _, o := range objs {
		if err := s.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	return s
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
