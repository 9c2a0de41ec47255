package tier

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// TestStatsSharedPerRustFS: three Tiers of one RustFS read one tier-stats
// answer per refresh interval, each takes its own tier's row, and the
// statistics of a tier RustFS does not list are zero.
func TestStatsSharedPerRustFS(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA, withVerify(verifyInterval))
	names := []string{"COLD", "WARM", "IDLE"}
	var crs []*v1alpha1.Tier
	for _, n := range names {
		cr := h.store(tier(h.remote.TierURL(), withName(n), withMeta(ns, "tier-"+n, 0), withPrefix(tierPrefix+n+"/")))
		h.expect(cr, "create", "")
		crs = append(crs, cr)
	}
	h.local.SeedTierStats("COLD", rustfstest.TierStat{TotalSize: 4096, NumVersions: 3, NumObjects: 2})
	h.local.SeedTierStats("WARM", rustfstest.TierStat{TotalSize: 10, NumVersions: 1, NumObjects: 1})
	want := map[string]v1alpha1.TierStats{
		"COLD": {Objects: 2, Bytes: 4096, Versions: 3, InventoryStatus: "accounted"},
		"WARM": {Objects: 1, Bytes: 10, Versions: 1, InventoryStatus: "accounted"},
		"IDLE": {InventoryStatus: "accounted"},
	}
	for round := 1; round <= 3; round++ {
		h.now = h.now.Add(time.Minute) // the harness's refresh interval
		for range 2 {                  // two polls in one interval
			for _, cr := range crs {
				h.expect(cr, "none", "")
			}
		}
		if n := h.local.Count(rustfstest.RouteTierStats); n != round {
			t.Errorf("round %d: tier-stats requests: want %d (one per RustFS per refresh), got %d", round, round, n)
		}
	}
	for i, cr := range crs {
		got := cr.Status.AtProvider.Stats
		if got == nil {
			t.Fatalf("%s: no status.atProvider.stats", names[i])
		}
		if diff := cmp.Diff(want[names[i]], *got, cmpopts.IgnoreFields(v1alpha1.TierStats{}, "ObservedAt")); diff != "" {
			t.Errorf("%s: status.atProvider.stats: -want +got:\n%s", names[i], diff)
		}
	}
}
