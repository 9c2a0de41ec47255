package bucketlifecycle

import (
	"context"
	"fmt"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// Event reasons.
const (
	reasonApplied event.Reason = "Applied"
	reasonAdopted event.Reason = "Adopted"
)

// Observe observes the configuration (observe) and raises an Adopted event
// when the lifecycle has just adopted the bucket's configuration: its
// custody record, as the last reconcile stored it, said otherwise. A poll
// that changes nothing raises nothing.
func (e *external) Observe(ctx context.Context, cr *v1alpha1.BucketLifecycle) (managed.ExternalObservation, error) {
	was := acquired(cr)
	o, err := e.observe(ctx, cr)
	if acquired(cr) == v1alpha1.AcquiredAdopted && was != v1alpha1.AcquiredAdopted {
		recorder(e.record).Event(cr, event.Normal(reasonAdopted, "adopted the bucket's existing lifecycle configuration"))
	}
	return o, err
}

// acquired returns how the lifecycle came to manage the configuration.
func acquired(cr *v1alpha1.BucketLifecycle) v1alpha1.Acquisition {
	if c := cr.GetCustody(); c != nil {
		return c.Acquired
	}
	return ""
}

// announceApplied raises the event of a configuration written: the provider
// writes only when the spec and RustFS differ, so this is one per change.
func announceApplied(rec event.Recorder, cr *v1alpha1.BucketLifecycle) {
	n := len(cr.Spec.ForProvider.Rules)
	msg := fmt.Sprintf("applied %d lifecycle rules to bucket %s", n, cr.Spec.ForProvider.Bucket)
	if n == 0 {
		msg = "removed the lifecycle configuration of bucket " + cr.Spec.ForProvider.Bucket
	}
	recorder(rec).Event(cr, event.Normal(reasonApplied, msg))
}

// recorder returns r, or a recorder that drops events when r is nil.
func recorder(r event.Recorder) event.Recorder {
	if r == nil {
		return event.NewNopRecorder()
	}
	return r
}
