package manager

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
)

// A sink records which of its methods the broadcaster called, and tells
// the test each time it is called.
type sink struct {
	calls chan string
}

func (s *sink) Create(e *corev1.Event) (*corev1.Event, error) { s.calls <- "Create"; return e, nil }
func (s *sink) Update(e *corev1.Event) (*corev1.Event, error) { s.calls <- "Update"; return e, nil }
func (s *sink) Patch(e *corev1.Event, _ []byte) (*corev1.Event, error) {
	s.calls <- "Patch"
	return e, nil
}

// The broadcaster NewEvents builds correlates events in caches of
// EventCacheSize entries: a repeated event is a count on the Event
// already recorded (a Patch) while fewer than EventCacheSize other events
// came in between, and a new Event (a Create) after more.
func TestNewEventsCacheSize(t *testing.T) {
	cases := map[string]struct {
		reason string
		others int
		want   string
	}{
		"Kept":    {reason: "With EventCacheSize-1 other events in between, the repeat is still in the cache.", others: EventCacheSize - 1, want: "Patch"},
		"Evicted": {reason: "With EventCacheSize other events in between, the repeat has left the cache.", others: EventCacheSize, want: "Create"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := NewEvents()
			defer b.Shutdown()
			s := &sink{calls: make(chan string)}
			b.StartRecordingToSink(s)
			r := b.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "test"})
			emit := func(i int) string {
				n := fmt.Sprintf("cm-%04d", i)
				r.Event(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: n, UID: types.UID(n)}}, corev1.EventTypeWarning, "CannotObserve", "boom")
				select {
				case c := <-s.calls:
					return c
				case <-time.After(30 * time.Second):
					t.Fatalf("event %d reached no sink", i)
					return ""
				}
			}
			for i := 0; i <= tc.others; i++ {
				emit(i)
			}
			if got := emit(0); got != tc.want {
				t.Errorf("%s\nthe repeated event: want %s, got %s", tc.reason, tc.want, got)
			}
		})
	}
}
