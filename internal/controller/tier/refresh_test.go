package tier

import (
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// A storedChange is what happened to the stored Tier after the cache took
// its copy.
type storedChange func(t *testing.T, h *harness, stored *v1alpha1.Tier)

// recorded stores the record of the Secret's credentials, as the Create
// of an earlier reconcile does.
func recorded(t *testing.T, h *harness, stored *v1alpha1.Tier) {
	memo.Set(stored, credentialsKey, applied{SecretName: secretName, SecretResourceVersion: tierSecretVersion(t, h), AccessKeyHash: hashKey(tierAK)})
	if err := h.kube.Update(ctx(t), stored); err != nil {
		t.Fatal(err)
	}
}

// respecified also changes the spec: a new generation.
func respecified(t *testing.T, h *harness, stored *v1alpha1.Tier) {
	stored.Generation++
	stored.Spec.ForProvider.Force = true
	recorded(t, h, stored)
}

func TestAdoptionRereadsAStaleCachedTier(t *testing.T) {
	cases := map[string]struct {
		reason  string
		change  storedChange
		step    string
		fresher bool
	}{
		"StaleCache": {reason: "The cache lags behind the record Create stored: no edit, and the stored metadata is taken.",
			change: recorded, step: "none", fresher: true},
		"NewerGeneration": {reason: "The record is taken from a stored Tier of a newer generation, not its metadata.",
			change: respecified, step: "none"},
		"ReallyAdopted": {reason: "A tier the provider never applied credentials to is adopted with one edit.",
			change: func(*testing.T, *harness, *v1alpha1.Tier) {}, step: "update", fresher: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeGA)
			h.local.SeedTier(seeded(h.remote.TierURL(), tierAK))
			cached := h.store(tier(h.remote.TierURL()))
			stored := cached.DeepCopy()
			tc.change(t, h, stored)

			if step, err := h.reconcile(cached); step != tc.step || err != nil {
				t.Fatalf("%s\nreconcile: %s (%v); want %s", tc.reason, step, err, tc.step)
			}
			wantEdits := map[string]int{"none": 0, "update": 1}[tc.step]
			if n := h.local.Count(rustfstest.RouteEditTier); n != wantEdits {
				t.Errorf("%s\ncredential edits: got %d, want %d", tc.reason, n, wantEdits)
			}
			// The custody record is saved through the status subresource,
			// which updates the in-memory resourceVersion in every case; the
			// spec reconciled must stay the one that was read.
			if fresher := cached.Generation == h.fetch(stored).Generation; fresher != tc.fresher {
				t.Errorf("%s\nin-memory generation is the stored one: %t, want %t", tc.reason, fresher, tc.fresher)
			}
			if tc.step == "none" && recall(cached) == nil {
				t.Errorf("%s\nthe stored credentials record was not taken", tc.reason)
			}
		})
	}
}
