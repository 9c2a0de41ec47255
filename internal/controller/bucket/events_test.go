package bucket

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
)

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
	if diff := cmp.Diff([]string{"Warning/ConflictFound"}, h.events.Take()); diff != "" {
		t.Errorf("events over three polls of a conflict: -want +got:\n%s", diff)
	}
	b = h.converge(h.edit(b, func(b *v1alpha1.Bucket) { b.Spec.ForProvider.ObjectLock = false }), 3)
	if c := b.GetCondition(v1alpha1.TypeBucketConflict); c.Status != "False" {
		t.Errorf("BucketConflict after the fix: want False, got %s/%s", c.Status, c.Reason)
	}
	if diff := cmp.Diff([]string{"Normal/ConflictCleared", "Normal/Adopted"}, h.events.Take()); diff != "" {
		t.Errorf("events of the fix: -want +got:\n%s", diff)
	}
	for range 3 {
		h.converge(b, 1)
	}
	if got := h.events.Take(); len(got) != 0 {
		t.Errorf("events over three polls without a change: want none, got %v", got)
	}
}
