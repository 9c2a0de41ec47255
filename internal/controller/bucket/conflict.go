package bucket

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/notify"
)

// conflictReasons are the Ready=False reasons reported as
// BucketConflict=True: the Bucket cannot manage its bucket until its spec
// or another Bucket changes.
var conflictReasons = map[xpv2.ConditionReason]bool{
	v1alpha1.ReasonBucketConflict:  true,
	v1alpha1.ReasonDuplicateBucket: true,
}

// Event reasons (announce).
const (
	reasonConflictFound   event.Reason = "ConflictFound"
	reasonConflictCleared event.Reason = "ConflictCleared"
	reasonAdopted         event.Reason = "Adopted"
)

// Observe observes the bucket (observe), then sets BucketConflict from
// the outcome and raises one event per change of it or of the adoption.
func (e *external) Observe(ctx context.Context, cr *v1alpha1.Bucket) (managed.ExternalObservation, error) {
	b := snapshot(cr)
	o, err := e.observe(ctx, cr)
	markConflict(cr)
	announce(recorder(e.record), cr, b)
	return o, err
}

// markConflict sets BucketConflict: True with Ready's message for a
// conflict, False once the Bucket is Ready; a transient failure leaves it
// as it was.
func markConflict(cr *v1alpha1.Bucket) {
	ready := cr.GetCondition(xpv2.TypeReady)
	c := xpv2.Condition{Type: v1alpha1.TypeBucketConflict, LastTransitionTime: metav1.Now(), ObservedGeneration: cr.GetGeneration()}
	switch {
	case ready.Status == corev1.ConditionFalse && conflictReasons[ready.Reason]:
		c.Status, c.Reason, c.Message = corev1.ConditionTrue, ready.Reason, ready.Message
	case ready.Status == corev1.ConditionTrue:
		c.Status, c.Reason = corev1.ConditionFalse, v1alpha1.ReasonNoConflict
	default:
		return
	}
	cr.SetConditions(c)
}

// A before is what announce compares with.
type before struct {
	conflict corev1.ConditionStatus
	adopted  bool // the Bucket was Ready with an adopted bucket
}

func snapshot(cr *v1alpha1.Bucket) before {
	return before{conflict: cr.GetCondition(v1alpha1.TypeBucketConflict).Status, adopted: adoptedAndReady(cr)}
}

// adoptedAndReady reports whether the Bucket manages a bucket it adopted.
func adoptedAndReady(cr *v1alpha1.Bucket) bool {
	return cr.Status.AtProvider.Adopted && notify.Ready(cr.GetCondition(xpv2.TypeReady))
}

// announce raises one event per change between the Bucket as the reconcile
// read it (as the last reconcile stored it) and now: a conflict found or
// cleared, the bucket adopted (once it is Ready). A poll that changes nothing raises nothing.
func announce(rec event.Recorder, cr *v1alpha1.Bucket, b before) {
	c := notify.Change{Was: b.conflict, Now: cr.GetCondition(v1alpha1.TypeBucketConflict), Bad: corev1.ConditionTrue}
	notify.Turn(rec, cr, c, notify.Events{Bad: reasonConflictFound, Good: reasonConflictCleared,
		Healed: "the bucket matches the spec and no other Bucket claims it"})
	notify.Adopted(rec, cr, b.adopted, adoptedAndReady(cr), reasonAdopted, "adopted the existing bucket")
}

// recorder returns r, or a recorder that drops events when r is nil.
func recorder(r event.Recorder) event.Recorder {
	if r == nil {
		return event.NewNopRecorder()
	}
	return r
}
