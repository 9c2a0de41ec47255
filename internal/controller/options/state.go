package options

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/internal/metrics"
)

// RecordState makes mgr recount the managed resources of obj's kind every
// PollStateMetricInterval: crossplane-runtime's exists, ready and synced
// gauges, and how many have each of conditions True. An interval of 0
// records nothing.
func (o Options) RecordState(mgr ctrl.Manager, obj client.Object, conditions ...xpv2.ConditionType) error {
	if o.MetricOptions == nil || o.MetricOptions.PollStateMetricInterval <= 0 {
		return nil
	}
	r, err := metrics.NewStateRecorder(mgr.GetCache(), mgr.GetScheme(), o.Logger, obj, o.MetricOptions.PollStateMetricInterval, conditions...)
	if err != nil {
		return err
	}
	return mgr.Add(r)
}
