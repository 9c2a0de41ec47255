package bucketlifecycle

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// Annotations this controller keeps its memory in.
const (
	// keyApplied records the last configuration put: its hash, the hash
	// of what RustFS returned afterwards and the fields it dropped.
	keyApplied = memo.Prefix + "lifecycle"

	// keyRetry records a failure of a first put that is retried with
	// backoff (a tier or the bucket missing), so that Observe can report
	// it: status written in Create is discarded.
	keyRetry = memo.Prefix + "lifecycle-retry"
)

// maxDropped bounds the dropped field paths kept in annotations and status.
const maxDropped = 100

// An applied configuration: what the provider last put and what RustFS then
// returned, as hashes of the normalised configurations.
type applied struct {
	AppliedHash  string   `json:"appliedHash"`
	ObservedHash string   `json:"observedHash"`
	Dropped      []string `json:"dropped,omitempty"`
}

// covers reports whether this memory proves the live configuration is the
// result of putting the spec: then the spec is applied as far as RustFS
// keeps it, and putting it again would change nothing.
func (a applied) covers(specHash, liveHash string) bool {
	return a.AppliedHash != "" && a.AppliedHash == specHash && a.ObservedHash == liveHash
}

// A retry is a failure reported on the next Observe.
type retry struct {
	Reason  xpv2.ConditionReason `json:"reason"`
	Message string               `json:"message"`
}

// recall returns the memory recorded on cr.
func recall(cr *v1alpha1.BucketLifecycle) applied {
	var a applied
	memo.Get(cr, keyApplied, &a)
	return a
}

// fold copies the memory into status.atProvider.
func fold(cr *v1alpha1.BucketLifecycle, a applied) {
	cr.Status.AtProvider.AppliedHash = a.AppliedHash
	cr.Status.AtProvider.ObservedHash = a.ObservedHash
	cr.Status.AtProvider.DroppedFields = a.Dropped
}

// degraded reports which fields RustFS dropped, or that it kept them all.
func degraded(fields []string) xpv2.Condition {
	c := xpv2.Condition{
		Type: v1alpha1.TypeLifecycleDegraded, Status: corev1.ConditionFalse, Reason: v1alpha1.ReasonAllFieldsKept,
		LastTransitionTime: metav1.Now(),
	}
	if len(fields) == 0 {
		return c
	}
	c.Status, c.Reason = corev1.ConditionTrue, v1alpha1.ReasonFieldsDropped
	c.Message = fmt.Sprintf("RustFS did not keep %s of the configuration the provider put; the provider does not put it again "+
		"until spec.forProvider.rules or the live configuration changes. Remove these fields from the spec, or upgrade RustFS "+
		"to a version that supports them", list(fields, 10))
	return c
}

// list joins up to n items and says how many more there are.
func list(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

func capped(items []string) []string {
	if len(items) <= maxDropped {
		return items
	}
	return items[:maxDropped]
}
