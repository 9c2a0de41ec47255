package bucketlifecycle

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

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
			if diff := cmp.Diff(tc.want, h.events.Take()); diff != "" {
				t.Errorf("events until Ready: -want +got:\n%s", diff)
			}
			for range 3 {
				cr = h.converge(cr, 1)
			}
			if got := h.events.Take(); len(got) != 0 {
				t.Errorf("events over three polls without a change: want none, got %v", got)
			}
		})
	}
}
