package bucket

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

// recording is an event.Recorder that keeps "Type/Reason" of each event.
type recording struct{ got []string }

func (r *recording) Event(_ runtime.Object, e event.Event) {
	r.got = append(r.got, string(e.Type)+"/"+string(e.Reason))
}

func (r *recording) WithAnnotations(...string) event.Recorder { return r }

// take returns the events recorded since the last take.
func (r *recording) take() []string {
	got := r.got
	r.got = nil
	return got
}

// TestConflictEventsOncePerChange: BucketConflict follows the conflict,
// and each change raises one event, whatever the number of polls.
func TestConflictEventsOncePerChange(t *testing.T) {
	h := newHarness(t, "")
	h.rfs.CreateBucket(bucketName, false)
	b := h.store(bucket(withObjectLock()))
	for range 3 {
		b, _, _ = h.reconcile(b)
	}
	if c := b.GetCondition(v1alpha1.TypeBucketConflict); c.Status != "True" || c.Reason != v1alpha1.ReasonBucketConflict {
		t.Errorf("BucketConflict: want True/BucketConflict, got %s/%s", c.Status, c.Reason)
	}
	if diff := cmp.Diff([]string{"Warning/ConflictFound"}, h.events.take()); diff != "" {
		t.Errorf("events over three polls of a conflict: -want +got:\n%s", diff)
	}
	b = h.converge(h.edit(b, func(b *v1alpha1.Bucket) { b.Spec.ForProvider.ObjectLock = false }), 3)
	if c := b.GetCondition(v1alpha1.TypeBucketConflict); c.Status != "False" {
		t.Errorf("BucketConflict after the fix: want False, got %s/%s", c.Status, c.Reason)
	}
	if diff := cmp.Diff([]string{"Normal/ConflictCleared", "Normal/Adopted"}, h.events.take()); diff != "" {
		t.Errorf("events of the fix: -want +got:\n%s", diff)
	}
	for range 3 {
		h.converge(b, 1)
	}
	if got := h.events.take(); len(got) != 0 {
		t.Errorf("events over three polls without a change: want none, got %v", got)
	}
}
