package notify

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A log records the events raised, as type/reason: message.
type log []string

func (l *log) Event(_ runtime.Object, e event.Event) {
	*l = append(*l, string(e.Type)+"/"+string(e.Reason)+": "+e.Message)
}

func (l *log) WithAnnotations(...string) event.Recorder { return l }

func conflict(s corev1.ConditionStatus) xpv2.Condition {
	return xpv2.Condition{Status: s, Message: "taken"}
}

func TestTurn(t *testing.T) {
	cases := map[string]struct {
		reason string
		c      Change
		want   []string
	}{
		"TurnedBad": {
			reason: "A condition that turns to its bad status raises a Warning with its message.",
			c:      Change{Was: corev1.ConditionFalse, Now: conflict(corev1.ConditionTrue), Bad: corev1.ConditionTrue},
			want:   []string{"Warning/Found: taken"},
		},
		"FirstSeenBad": {
			reason: "A condition seen bad for the first time (no status before) raises a Warning.",
			c:      Change{Now: conflict(corev1.ConditionTrue), Bad: corev1.ConditionTrue},
			want:   []string{"Warning/Found: taken"},
		},
		"StaysBad": {
			reason: "A poll that finds the condition as bad as before raises nothing.",
			c:      Change{Was: corev1.ConditionTrue, Now: conflict(corev1.ConditionTrue), Bad: corev1.ConditionTrue},
		},
		"Healed": {
			reason: "A condition that turns from bad to good raises a Normal event.",
			c:      Change{Was: corev1.ConditionTrue, Now: conflict(corev1.ConditionFalse), Bad: corev1.ConditionTrue},
			want:   []string{"Normal/Cleared: fine again"},
		},
		"GoodFromUnknown": {
			reason: "A condition that becomes good without having been bad raises nothing.",
			c:      Change{Now: conflict(corev1.ConditionFalse), Bad: corev1.ConditionTrue},
		},
		"HealthTurnedBad": {
			reason: "For a health condition False is bad.",
			c:      Change{Was: corev1.ConditionTrue, Now: conflict(corev1.ConditionFalse), Bad: corev1.ConditionFalse},
			want:   []string{"Warning/Found: taken"},
		},
		"HealthHealed": {
			reason: "For a health condition True after False is healed.",
			c:      Change{Was: corev1.ConditionFalse, Now: conflict(corev1.ConditionTrue), Bad: corev1.ConditionFalse},
			want:   []string{"Normal/Cleared: fine again"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got log
			Turn(&got, nil, tc.c, Events{Bad: "Found", Good: "Cleared", Healed: "fine again"})
			if diff := cmp.Diff([]string(tc.want), []string(got)); diff != "" {
				t.Errorf("%s\nTurn(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAdopted(t *testing.T) {
	cases := map[string]struct {
		was, now bool
		want     []string
	}{
		"JustAdopted":    {now: true, want: []string{"Normal/Adopted: adopted x"}},
		"AdoptedBefore":  {was: true, now: true},
		"NotAdopted":     {},
		"NoLongerAdopts": {was: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got log
			Adopted(&got, nil, tc.was, tc.now, "Adopted", "adopted x")
			if diff := cmp.Diff([]string(tc.want), []string(got)); diff != "" {
				t.Errorf("Adopted(was=%t, now=%t): -want, +got:\n%s", tc.was, tc.now, diff)
			}
		})
	}
}
