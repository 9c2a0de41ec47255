package metrics

import (
	"context"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
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
// of its conditions True, for one managed kind every interval. It reads
// the manager's cache and runs on the leader only (a manager Runnable).
// Unlike statemetrics.MRStateRecorder's loop, which returns its first
// error and so stops the manager, it logs a failed list and tries again.
type StateRecorder struct {
	kube client.Reader
	// list is an empty list of the kind, copied for each Record.
	list       resource.ManagedList
	gvk        string
	conditions []xpv2.ConditionType
	log        logging.Logger
	interval   time.Duration
}

// NewStateRecorder returns a recorder of the kind of list, read through c,
// that also counts the resources with each of conditions True.
func NewStateRecorder(c client.Client, log logging.Logger, list resource.ManagedList, interval time.Duration, conditions ...xpv2.ConditionType) (*StateRecorder, error) {
	gvk, err := apiutil.GVKForObject(list, c.Scheme())
	if err != nil {
		return nil, errors.Wrap(err, "cannot find the kind of a managed resource list")
	}
	// The gvk label as crossplane-runtime writes it: the kind without "List".
	label := strings.Replace(gvk.String(), "List", "", 1)
	return &StateRecorder{kube: c, list: list, gvk: label, conditions: conditions, log: log, interval: interval}, nil
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

// Record lists the kind once and sets its gauges.
func (r *StateRecorder) Record(ctx context.Context) error {
	// A new list each time: a list kept between intervals would keep its
	// items, and through them every cached object as it was then, alive.
	l, ok := r.list.DeepCopyObject().(resource.ManagedList)
	if !ok {
		return errors.Errorf("%T is not a managed resource list", r.list)
	}
	// The items are only read, so the cache need not copy them.
	if err := r.kube.List(ctx, l, client.UnsafeDisableDeepCopy); err != nil {
		return errors.Wrap(err, "cannot list managed resources")
	}
	items := l.GetItems()
	counts := make([]float64, len(r.conditions))
	ready, synced := 0.0, 0.0
	for _, mr := range items {
		ready += isTrue(mr, xpv2.TypeReady)
		synced += isTrue(mr, xpv2.TypeSynced)
		for i, c := range r.conditions {
			counts[i] += isTrue(mr, c)
		}
	}
	StateMetrics.Exists.WithLabelValues(r.gvk).Set(float64(len(items)))
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
