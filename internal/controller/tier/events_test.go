package tier

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
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
