package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"
)

var (
	// ManagedRecorder records crossplane-runtime's managed resource timings
	// (first reconcile, first readiness, deletion, drift) for every kind.
	ManagedRecorder = managed.NewMRMetricRecorder()
	// StateMetrics are crossplane-runtime's counts of managed resources that
	// exist, are Ready and are Synced, by kind; StateRecorders set them.
	StateMetrics = statemetrics.NewMRStateMetrics()

	conditionTrue = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "rustfs_managed_resource_condition_true",
		Help: "Managed resources of a kind whose condition (TierConflict, BucketConflict, LifecycleDegraded) is True.",
	}, []string{"gvk", "condition"})
)

// A StateRecorder sets StateMetrics, and the count of resources with each
// of its conditions True, for one managed kind every interval. It counts
// the objects of the kind's informer store, in place: a List of the cache,
// even without deep copies, copies every object into its items, 8 to 12 %
// of what the provider allocated while it polled (docs/performance.md, "Allocations while polling"). It runs on the
// leader only (a manager Runnable). Unlike statemetrics.MRStateRecorder's
// loop, which returns its first error and so stops the manager, it logs a
// failed count and tries again.
type StateRecorder struct {
	informers cache.Informers
	// obj is an object of the kind, which names its informer.
	obj        client.Object
	gvk        string
	conditions []xpv2.ConditionType
	log        logging.Logger
	interval   time.Duration
}

// A storer is an informer that shows its store, as the client-go shared
// informers controller-runtime's cache hands out do.
type storer interface {
	GetStore() toolscache.Store
}

// NewStateRecorder returns a recorder of obj's kind, counted from its
// informer in c, that also counts the resources with each of conditions
// True.
func NewStateRecorder(c cache.Informers, s *runtime.Scheme, log logging.Logger, obj client.Object, interval time.Duration, conditions ...xpv2.ConditionType) (*StateRecorder, error) {
	gvk, err := apiutil.GVKForObject(obj, s)
	if err != nil {
		return nil, errors.Wrap(err, "cannot find the kind of a managed resource")
	}
	return &StateRecorder{informers: c, obj: obj, gvk: gvk.String(), conditions: conditions, log: log, interval: interval}, nil
}

// Start records at once and then every interval until ctx is done.
func (r *StateRecorder) Start(ctx context.Context) error {
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		if err := r.Record(ctx); err != nil && ctx.Err() == nil {
			r.log.Info("Cannot record managed resource state metrics", "gvk", r.gvk, "error", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Record counts the kind's cached objects once and sets its gauges.
func (r *StateRecorder) Record(ctx context.Context) error {
	i, err := r.informers.GetInformer(ctx, r.obj)
	if err != nil {
		return errors.Wrap(err, "cannot get the informer of managed resources")
	}
	s, ok := i.(storer)
	if !ok || s.GetStore() == nil {
		return errors.Errorf("the informer of %s shows no store", r.gvk)
	}
	counts := make([]float64, len(r.conditions))
	exists, ready, synced := 0.0, 0.0, 0.0
	// The objects are only read: the store's own, not copies.
	for _, o := range s.GetStore().List() {
		mr, ok := o.(resource.Managed)
		if !ok {
			continue
		}
		exists++
		ready += isTrue(mr, xpv2.TypeReady)
		synced += isTrue(mr, xpv2.TypeSynced)
		for i, c := range r.conditions {
			counts[i] += isTrue(mr, c)
		}
	}
	StateMetrics.Exists.WithLabelValues(r.gvk).Set(exists)
	StateMetrics.Ready.WithLabelValues(r.gvk).Set(ready)
	StateMetrics.Synced.WithLabelValues(r.gvk).Set(synced)
	for i, c := range r.conditions {
		conditionTrue.WithLabelValues(r.gvk, string(c)).Set(counts[i])
	}
	return nil
}

func isTrue(mr resource.Managed, t xpv2.ConditionType) float64 {
	if mr.GetCondition(t).Status == corev1.ConditionTrue {
		return 1
	}
	return 0
}
