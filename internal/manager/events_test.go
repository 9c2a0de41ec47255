package manager

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"github.com/google/go-cmp/cmp"
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
			b := NewEvents(logr.Discard())
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

// With --debug the provider logs every event it records, as
// controller-runtime's own broadcaster does; otherwise it logs none.
func TestNewEventsLogsAtDebug(t *testing.T) {
	cases := map[string]struct {
		verbosity int
		want      []string
	}{
		"Debug":   {verbosity: 1, want: []string{`"msg"="cannot observe"`, `"type"="Warning"`, `"reason"="CannotObserve"`}},
		"NoDebug": {verbosity: 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			lines := make(chan string, 8)
			log := funcr.New(func(_, args string) { lines <- args }, funcr.Options{Verbosity: tc.verbosity})
			b := NewEvents(log)
			defer b.Shutdown()
			s := &sink{calls: make(chan string, 1)}
			b.StartRecordingToSink(s)
			r := b.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "test"})
			r.Event(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "cm", UID: "cm"}}, corev1.EventTypeWarning, "CannotObserve", "cannot observe")
			<-s.calls // the event went through the broadcaster
			wait := 30 * time.Second
			if tc.want == nil {
				wait = 200 * time.Millisecond
			}
			var got []string
			select {
			case l := <-lines:
				for _, w := range []string{`"msg"="cannot observe"`, `"type"="Warning"`, `"reason"="CannotObserve"`} {
					if strings.Contains(l, w) {
						got = append(got, w)
					}
				}
			case <-time.After(wait):
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parts of the event logged (-want +got):\n%s", diff)
			}
		})
	}
}
