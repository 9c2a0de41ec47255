// Package notify raises the events of a condition that changes: one when
// it turns bad, one when it turns good again, none while it stays, so a
// poll that changes nothing raises nothing. Callers compare the resource as
// the reconcile read it (as the last reconcile stored it) with the resource
// now, never a memory of the process, so a restart raises nothing again.
package notify

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A Change is one condition as the reconcile read it and as it is now.
type Change struct {
	Was corev1.ConditionStatus
	Now xpv2.Condition
	// Bad is the status that is a problem: True for a conflict, False for
	// a health condition.
	Bad corev1.ConditionStatus
}

// Events are the events of one condition's turns.
type Events struct {
	Bad  event.Reason // a Warning with the condition's message
	Good event.Reason // a Normal with Healed
	// Healed is the message of the Normal event.
	Healed string
}

// Turn raises e.Bad when the condition turned bad, and e.Good when it
// turned from bad to the opposite status.
func Turn(rec event.Recorder, o runtime.Object, c Change, e Events) {
	switch {
	case c.Now.Status == c.Bad && c.Was != c.Bad:
		rec.Event(o, event.Warning(e.Bad, message(c.Now.Message)))
	case c.Now.Status == opposite(c.Bad) && c.Was == c.Bad:
		rec.Event(o, event.Normal(e.Good, e.Healed))
	}
}

// Adopted raises a Normal event with reason and msg when the resource has
// just become Ready with an object it adopted.
func Adopted(rec event.Recorder, o runtime.Object, was, now bool, reason event.Reason, msg string) {
	if now && !was {
		rec.Event(o, event.Normal(reason, msg))
	}
}

// Ready reports whether c, a resource's Ready condition, is True.
func Ready(c xpv2.Condition) bool { return c.Status == corev1.ConditionTrue }

func opposite(s corev1.ConditionStatus) corev1.ConditionStatus {
	if s == corev1.ConditionTrue {
		return corev1.ConditionFalse
	}
	return corev1.ConditionTrue
}

// message is a condition's message as an error, for a Warning event.
type message string

func (m message) Error() string { return string(m) }
