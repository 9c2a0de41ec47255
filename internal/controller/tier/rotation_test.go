package tier

import (
	"strings"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// Keys the remote does not know.
const (
	refusedAK = "AKSENTINEL4REFUSED"
	refusedSK = "SKSENTINEL-refused-secret-must-not-leak"
)

func init() { sentinels = append(sentinels, refusedAK, refusedSK) }

// A rotation to keys the remote refuses, against a GA RustFS that probes the
// remote with them (docs/rustfs-wire.md §13.2): the Tier reports the refusal, stays Ready
// and usable with the keys RustFS kept, does not retry until the Secret
// changes, and takes the fixed Secret's keys with one edit.
func TestRotationToRefusedKeysKeepsTheOldKeysUntilTheSecretIsFixed(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	cr := h.store(tier(h.remote.TierURL()))
	h.expect(cr, "create", "")
	cr = h.fetch(cr)
	h.expect(cr, "none", "")

	h.rotate(refusedAK, refusedSK)
	refused := string(v1alpha1.ReasonCredentialsRefused)
	h.expect(cr, "update", refused)
	if got := get(cr, "Ready"); got != "True/Available" {
		t.Errorf("Ready after the refused rotation: %s, want True/Available (the tier works on)", got)
	}
	if err := blocked(h.reconcileErr(cr)); err == nil || !strings.Contains(err.Message, "keeps the credentials it had") {
		t.Errorf("the refusal is not explained: %v", err)
	}
	live, _ := h.liveTier("COLD")
	if live.AccessKey != keyLabel(tierAK) || live.SecretKey != keyLabel(tierSK) {
		t.Errorf("after the refused rotation RustFS has %s/%s, want the previous keys", live.AccessKey, live.SecretKey)
	}
	if err := adminClient(t, h).VerifyTier(ctx(t), "COLD"); err != nil {
		t.Errorf("the tier no longer works with the keys RustFS kept: %v", err)
	}

	h.local.ResetCounters()
	for range 2 {
		h.expect(h.fetch(cr), "observe", refused)
	}
	h.expectCounts(map[string]int{rustfstest.RouteListTiers: 2})

	h.rotate(rotatedAK, rotatedSK)
	h.expect(h.fetch(cr), "update", "")
	live, _ = h.liveTier("COLD")
	if live.AccessKey != keyLabel(rotatedAK) || live.SecretKey != keyLabel(rotatedSK) {
		t.Errorf("after the Secret was fixed RustFS has %s/%s, want the rotated keys", live.AccessKey, live.SecretKey)
	}
	h.expect(h.fetch(cr), "none", "")
}

// reconcileErr runs one more Observe on the stored Tier and returns its error.
func (h *harness) reconcileErr(cr *v1alpha1.Tier) error {
	h.t.Helper()
	_, err := h.observe(h.fetch(cr))
	return err
}

// adminClient is a client of the harness's local RustFS with the admin keys.
func adminClient(t *testing.T, h *harness) *rustfs.Client {
	t.Helper()
	c, err := rustfs.New(rustfs.Config{Endpoint: h.local.URL(), AccessKey: adminAK, SecretKey: adminSK})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
