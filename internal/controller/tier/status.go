package tier

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// credentialsKey is the annotation that records the credentials the
// provider last applied to the tier (an applied record).
const credentialsKey = memo.Prefix + "credentials"

// The writes the controller makes; a block (memo.Block) of one never
// stops the other: an add that failed says nothing about a credentials edit
// of a tier that now exists.
const (
	opAdd  = "add"
	opEdit = "edit"
)

// recall returns the credentials recorded on the Tier, or nil.
func recall(cr *v1alpha1.Tier) *applied {
	var a applied
	if !memo.Get(cr, credentialsKey, &a) {
		return nil
	}
	return &a
}

// fingerprint digests the inputs whose change lifts a block: the Tier's
// generation, its Secret's resourceVersion and its ProviderConfig revision.
func fingerprint(cr *v1alpha1.Tier, secretVersion, revision string) string {
	return memo.Fingerprint(strconv.FormatInt(cr.GetGeneration(), 10), secretVersion, revision)
}

// conflictReasons are the failures reported as TierConflict=True.
var conflictReasons = map[xpv2.ConditionReason]bool{
	v1alpha1.ReasonImmutableFieldDrift: true,
	v1alpha1.ReasonBackendInUse:        true,
	v1alpha1.ReasonDuplicateTier:       true,
}

func condition(t xpv2.ConditionType, s corev1.ConditionStatus, r xpv2.ConditionReason, msg string, gen int64) xpv2.Condition {
	return xpv2.Condition{Type: t, Status: s, Reason: r, Message: msg, LastTransitionTime: metav1.Now(), ObservedGeneration: gen}
}

// noConflict is TierConflict=False: the live tier, if any, matches the spec
// and no other Tier claims its name.
func noConflict(gen int64) xpv2.Condition {
	return condition(v1alpha1.TypeTierConflict, corev1.ConditionFalse, v1alpha1.ReasonNoConflict, "", gen)
}

// A blockedError is a failure that retrying cannot fix: only a change of the
// Tier, its Secret or its ProviderConfig can. Its message is the condition
// message: it names the problem and the next action, never a secret value.
type blockedError struct {
	Reason  xpv2.ConditionReason
	Message string
	// Cause is the error that blocked the Tier, if any: what RustFS
	// answered, the Secret error or the custody refusal.
	Cause error
}

func (e *blockedError) Error() string { return e.Message }

// Unwrap returns the cause of the block.
func (e *blockedError) Unwrap() error { return e.Cause }

// fail sets Ready=False for reason with msg (Ready=True for refused
// credentials: the tier works on with its previous ones), TierConflict=True
// for a conflict and TierConflict=False otherwise (so it is never left
// stale), and returns the blockedError to report, which Synced carries.
func fail(cr *v1alpha1.Tier, reason xpv2.ConditionReason, msg string) error {
	return failBecause(cr, reason, msg, nil)
}

// failBecause is fail for a block that cause led to; the returned error
// unwraps to it.
func failBecause(cr *v1alpha1.Tier, reason xpv2.ConditionReason, msg string, cause error) error {
	gen := cr.GetGeneration()
	ready := condition(xpv2.TypeReady, corev1.ConditionFalse, reason, msg, gen)
	if reason == v1alpha1.ReasonCredentialsRefused { // the tier works on with its previous credentials
		ready = xpv2.Available().WithObservedGeneration(gen)
	}
	conflict := noConflict(gen)
	if conflictReasons[reason] {
		ready.Reason = v1alpha1.ReasonTierConflict
		conflict = condition(v1alpha1.TypeTierConflict, corev1.ConditionTrue, reason, msg, gen)
	}
	cr.SetConditions(ready, conflict)
	return &blockedError{Reason: reason, Message: msg, Cause: cause}
}
