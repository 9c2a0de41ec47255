package tier

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// seeded is the tier COLD as registered out of band with the spec's
// settings and the given access key.
func seeded(endpoint, ak string) rustfstest.TierRecord {
	return rustfstest.TierRecord{Type: "rustfs", Name: "COLD", Endpoint: endpoint, AccessKey: ak, SecretKey: "old-secret",
		Bucket: remoteBkt, Prefix: tierPrefix, Region: "us-east-1"}
}

func TestRotatedSecretOnlyUpdatesCredentials(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			h := newHarness(t, mode)
			cr := h.store(tier(h.remote.TierURL()))
			h.expect(cr, "create", "")
			h.rotate(rotatedAK, rotatedSK)
			h.local.ResetCounters()

			h.expect(cr, "update", "")
			want := rustfstest.TierRecord{Type: "rustfs", Name: "COLD", Endpoint: h.remote.TierURL(), AccessKey: keyLabel(rotatedAK),
				SecretKey: keyLabel(rotatedSK), Bucket: remoteBkt, Prefix: tierPrefix, Region: "us-east-1"}
			got, _ := h.liveTier("COLD")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tier after rotation: -want +got:\n%s", diff)
			}
			h.expectCounts(map[string]int{rustfstest.RouteListTiers: 1, rustfstest.RouteEditTier: 1})

			// The applied record was persisted, so the next reconcile is quiet.
			stored := h.fetch(cr)
			var a applied
			memo.Get(stored, credentialsKey, &a)
			if want := (applied{SecretName: secretName, SecretResourceVersion: tierSecretVersion(t, h), AccessKeyHash: hashKey(rotatedAK)}); a != want {
				t.Errorf("persisted credentials record: got %+v, want %+v", a, want)
			}
			h.expect(stored, "none", "")
			h.expectCounts(map[string]int{rustfstest.RouteListTiers: 2, rustfstest.RouteEditTier: 1})
		})
	}
}

func TestSwitchingToAnotherSecretUpdatesCredentialsOnce(t *testing.T) {
	other := secret(ns, "other-creds", map[string]string{"accesskey": rotatedAK, "secretkey": rotatedSK})
	h := newHarness(t, rustfstest.ModeGA, withObjects(other))
	cr := h.store(tier(h.remote.TierURL()))
	if _, err := h.reconcile(cr); err != nil {
		t.Fatal(err)
	}
	cr = h.fetch(cr)
	withSecret("other-creds")(cr)
	cr.Generation++
	if err := h.kube.Update(ctx(t), cr); err != nil {
		t.Fatal(err)
	}
	h.local.ResetCounters()
	if step, err := h.reconcile(cr); step != "update" || err != nil {
		t.Fatalf("reconcile: %s, %v; want an update", step, err)
	}
	if step, err := h.reconcile(h.fetch(cr)); step != "none" || err != nil {
		t.Fatalf("second reconcile: %s, %v; want nothing to do", step, err)
	}
	got, _ := h.liveTier("COLD")
	if got.AccessKey != keyLabel(rotatedAK) || got.SecretKey != keyLabel(rotatedSK) || h.local.Writes() != 1 {
		t.Errorf("tier keys %s/%s after %d writes; want the other Secret's keys after exactly 1", got.AccessKey, got.SecretKey, h.local.Writes())
	}
}

func TestExistingTierIsAdoptedOnceAndOutOfBandKeyCorrected(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	h.local.SeedTier(seeded(h.remote.TierURL(), "AKSOMEONEELSE"))
	cr := h.store(tier(h.remote.TierURL()))

	h.expect(cr, "update", "")
	cr = h.fetch(cr)
	h.expect(cr, "none", "")
	if !cr.Status.AtProvider.Adopted {
		t.Error("status.atProvider.adopted: got false, want true for a tier that existed before the Tier")
	}
	h.expectCounts(map[string]int{rustfstest.RouteListTiers: 2, rustfstest.RouteEditTier: 1})

	// Someone changes the access key in RustFS behind the provider's back.
	h.local.SeedTier(seeded(h.remote.TierURL(), "AKROGUE"))
	h.expect(cr, "update", "")
	got, _ := h.liveTier("COLD")
	if got.AccessKey != keyLabel(tierAK) || got.SecretKey != keyLabel(tierSK) {
		t.Errorf("tier keys %s/%s; want the Secret's keys restored", got.AccessKey, got.SecretKey)
	}
	h.expectCounts(map[string]int{rustfstest.RouteListTiers: 3, rustfstest.RouteEditTier: 2})
	if rec := h.fetch(cr).GetCustody(); rec == nil || rec.Acquired != v1alpha1.AcquiredAdopted {
		t.Error("the correction forgot that the tier was adopted")
	}
}

func TestRedactedLiveKeyFallsBackToSecretVersion(t *testing.T) {
	cases := map[string]struct {
		reason    string
		liveKey   string
		stale     bool
		wantEdits int
	}{
		"RedactedSameVersion": {reason: "A REDACTED live key cannot be compared; the same Secret version means no edit.", liveKey: redacted},
		"EmptySameVersion":    {reason: "An empty live key cannot be compared either.", liveKey: ""},
		"RedactedNewVersion":  {reason: "A new Secret version is still applied, once.", liveKey: redacted, stale: true, wantEdits: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, rustfstest.ModeGA)
			h.local.SeedTier(seeded(h.remote.TierURL(), tc.liveKey))
			version := tierSecretVersion(t, h)
			if tc.stale {
				version = "1"
			}
			cr := h.store(tier(h.remote.TierURL(), withAnnotation(credentialsKey,
				applied{SecretName: secretName, SecretResourceVersion: version, AccessKeyHash: hashKey(tierAK)})))
			for range 2 {
				if _, err := h.reconcile(cr); err != nil {
					t.Fatal(err)
				}
				cr = h.fetch(cr)
			}
			if got := h.local.Count(rustfstest.RouteEditTier); got != tc.wantEdits {
				t.Errorf("%s\nedits: got %d, want %d", tc.reason, got, tc.wantEdits)
			}
			if cr.Status.AtProvider.AccessKeyHash != "" && tc.wantEdits == 0 {
				t.Errorf("status.atProvider.accessKeyHash: got a hash of an unreadable live key, want empty")
			}
		})
	}
}

func TestBlockedEditIsNotRetriedUntilAnInputChanges(t *testing.T) {
	applyFailed := string(v1alpha1.ReasonTierApplyFailed)
	// The provider's identity may list tiers but not change them.
	h := newHarness(t, rustfstest.ModeGA, withLocal(rustfstest.WithRootCredentials("root", "root-secret"),
		rustfstest.WithUser(adminAK, adminSK, "admin:ListTier")))
	h.local.SeedTier(seeded(h.remote.TierURL(), "AKSOMEONEELSE"))
	cr := h.store(tier(h.remote.TierURL()))

	h.expect(cr, "update", applyFailed)
	cr = h.fetch(cr)
	if _, ok := cr.GetAnnotations()[memo.BlockKey]; !ok {
		t.Fatal("the blocked edit was not persisted")
	}
	h.local.ResetCounters()
	h.expect(cr, "observe", applyFailed)
	h.expect(cr, "observe", applyFailed)
	h.expectCounts(map[string]int{rustfstest.RouteListTiers: 2})
	if got := get(cr, "Ready"); got != "False/TierApplyFailed" {
		t.Errorf("Ready: got %s, want False/TierApplyFailed", got)
	}

	// A change of the ProviderConfig's Secret lifts the block: the edit is tried again.
	s := secret(systemNS, adminSecret, nil)
	if err := h.kube.Get(ctx(t), client.ObjectKeyFromObject(s), s); err != nil {
		t.Fatal(err)
	}
	s.Labels = map[string]string{"rotated": "yes"}
	if err := h.kube.Update(ctx(t), s); err != nil {
		t.Fatal(err)
	}
	h.expect(cr, "update", applyFailed)
	h.expectCounts(map[string]int{rustfstest.RouteListTiers: 3, rustfstest.RouteEditTier: 1})
}
