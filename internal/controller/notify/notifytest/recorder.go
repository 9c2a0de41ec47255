// Package notifytest records the events a controller raises, for tests.
package notifytest

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
)

// A Recorder is an event.Recorder that keeps "Type/Reason" of each event.
type Recorder struct{ got []string }

// Event records e's type and reason.
func (r *Recorder) Event(_ runtime.Object, e event.Event) {
	r.got = append(r.got, string(e.Type)+"/"+string(e.Reason))
}

// WithAnnotations returns r: annotations are not recorded.
func (r *Recorder) WithAnnotations(...string) event.Recorder { return r }

// Take returns the events recorded since the last Take.
func (r *Recorder) Take() []string {
	got := r.got
	r.got = nil
	return got
}
