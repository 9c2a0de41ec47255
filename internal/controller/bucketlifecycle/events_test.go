package bucketlifecycle

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
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

// TestEventsOncePerChange: a put raises Applied, an adoption Adopted, and
// polls that change nothing raise nothing.
func TestEventsOncePerChange(t *testing.T) {
	cases := map[string]struct {
		live string
		want []string
	}{
		"Applied": {want: []string{"Normal/Applied"}},
		"Adopted": {live: twoRulesAsServed, want: []string{"Normal/Adopted"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD"})
			if tc.live != "" {
				h.setLive(tc.live)
			}
			cr := h.converge(h.store(lifecycle(twoRules())), 3)
			if diff := cmp.Diff(tc.want, h.events.take()); diff != "" {
				t.Errorf("events until Ready: -want +got:\n%s", diff)
			}
			for range 3 {
				cr = h.converge(cr, 1)
			}
			if got := h.events.take(); len(got) != 0 {
				t.Errorf("events over three polls without a change: want none, got %v", got)
			}
		})
	}
}
