package tier

import (
	"net/http"
	"strings"
	"testing"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

// Where the provider follows the RustFS operator (the seed) and where it
// departs from it on purpose (docs/design.md §5).

// The seed keeps 5xx answers pending and retries them with backoff. rc's
// answers that RustFS could not reach the remote (a failed Wasabi
// versioning check is the bare "Unable to setup remote tier, check tier
// configuration"; an in-use listing that could not connect is "Tier Perm
// Err.client error (Connect)") are retried that way, never recorded as a
// block, and the add goes through once the remote answers.
func TestRCRemoteNotReachedOnAddIsRetriedLikeTheSeed(t *testing.T) {
	cases := map[string]struct {
		harness func(t *testing.T) *harness
		tier    func(h *harness) *v1alpha1.Tier
		route   string
		fault   rustfstest.Fault
		answer  string
	}{
		"WasabiVersioningCheckFailed": {
			harness: func(t *testing.T) *harness { return wasabiHarness(t, rustfstest.ModeRC) },
			tier: func(*harness) *v1alpha1.Tier {
				return tier("", withType(v1alpha1.TierTypeWasabi), withRegion("eu-west-1"))
			},
			route: rustfstest.RouteGetVersioning, fault: rustfstest.Fault{Status: http.StatusServiceUnavailable, Code: "SlowDown"},
			answer: "tier add failed. Unable to setup remote tier, check tier configuration",
		},
		"InUseListingCouldNotConnect": {
			harness: func(t *testing.T) *harness { return newHarness(t, rustfstest.ModeRC) },
			tier:    func(h *harness) *v1alpha1.Tier { return tier(h.remote.TierURL()) },
			route:   rustfstest.RouteListObjects, fault: rustfstest.Fault{Reset: true},
			answer: "tier add failed. Tier Perm Err.client error (Connect)",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := tc.harness(t)
			cr := h.store(tc.tier(h))
			h.remote.InjectFault(tc.route, tc.fault)
			for range 2 {
				step, err := h.reconcile(h.fetch(cr))
				if step != "create" || err == nil || blocked(err) != nil || !rustfs.IsTransient(err) || !strings.Contains(err.Error(), tc.answer) {
					t.Fatalf("reconcile while the remote fails: %s, %v; want a transient, non-blocking create failing with %q", step, err, tc.answer)
				}
				if _, ok := h.fetch(cr).GetAnnotations()[memo.BlockKey]; ok {
					t.Fatal("an unreachable remote was recorded as a block")
				}
			}
			h.remote.ClearFaults()
			h.expect(h.fetch(cr), "create", "")
			if n := h.local.Count(rustfstest.RouteAddTier); n != 3 {
				t.Errorf("adds: %d, want 3 (two refused, one that went through)", n)
			}
		})
	}
}

// Departure from the seed: rc's "Unable to setup remote tier, check tier
// configuration: <detail>" is the backend refusing the settings before it
// contacts any remote (here the outbound guard refusing 2130706433, which
// is 127.0.0.1), so the same input always gets the same answer. It blocks
// until the Tier, its Secret or its ProviderConfig changes.
func TestRCRefusedSettingsBlockUntilAnInputChanges(t *testing.T) {
	h := newHarness(t, rustfstest.ModeRC)
	cr := h.store(tier("http://2130706433:9000", withType(v1alpha1.TierTypeS3)))
	h.expect(cr, "create", string(v1alpha1.ReasonTierApplyFailed))
	msg := cr.GetCondition("Ready").Message
	for _, want := range []string{"outbound URL host '127.0.0.1' is not allowed: loopback address", retryNote} {
		if !strings.Contains(msg, want) {
			t.Errorf("Ready message %q does not say %q", msg, want)
		}
	}
	h.expect(h.fetch(cr), "observe", string(v1alpha1.ReasonTierApplyFailed))
	if n := h.local.Count(rustfstest.RouteAddTier); n != 1 {
		t.Errorf("adds: %d, want 1 (blocked until an input changes)", n)
	}
}

// When RustFS refuses a GCS tier's credentials, the Tier says which
// credential kind RustFS reads, and which release can use it: here RustFS
// 1.0.x's check refuses an authorized-user JSON that is not labelled
// "service_account".
func TestGCSRefusalSaysWhatCredentialKindIsNeeded(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	setSecretData(h, map[string]string{auKey: rustfstest.GCSAuthorizedUser(tierAK, tierSK)})
	cr := h.store(tier(h.remote.TierURL(), withType(v1alpha1.TierTypeGCS), withRegion("")))
	h.expect(cr, "create", string(v1alpha1.ReasonTierApplyFailed))
	msg := cr.GetCondition("Ready").Message
	for _, want := range []string{"GCS credentials must describe a service account", "authorized-user JSON",
		"refuses a service-account key", `key "credentials.json"`, "RustFS 1.0.0-rc adds and rotates GCS tiers", retryNote} {
		if !strings.Contains(msg, want) {
			t.Errorf("Ready message %q does not say %q", msg, want)
		}
	}
}

// A GCS tier with a service-account key never reaches RustFS; with an
// authorized-user JSON an rc RustFS adds it and the provider rotates it
// through rc's edit body, after rc refused 1.0.x's (docs/rustfs-wire.md §5).
func TestGCSTierIsAddedAndRotatedOnRC(t *testing.T) {
	h := newHarness(t, rustfstest.ModeRC)
	setSecretData(h, map[string]string{auKey: rustfstest.GCSAuthorizedUser(tierAK, tierSK)})
	cr := h.store(tier(h.remote.TierURL(), withType(v1alpha1.TierTypeGCS), withRegion("")))
	h.expect(cr, "create", "")
	h.expect(h.fetch(cr), "none", "")
	setSecretData(h, map[string]string{auKey: rustfstest.GCSAuthorizedUser(rotatedAK, rotatedSK)})
	h.local.ResetCounters()
	h.expect(h.fetch(cr), "update", "")
	if got, _ := h.local.Tier("COLD"); got.Creds != rustfstest.GCSAuthorizedUser(rotatedAK, rotatedSK) {
		t.Error("the rotated authorized-user JSON was not applied")
	}
	if n := h.local.Count(rustfstest.RouteEditTier); n != 2 {
		t.Errorf("edits: %d, want 2 (1.0.x's body refused by rc with TierMissingCredentials, then rc's)", n)
	}
	var a applied
	memo.Get(h.fetch(cr), credentialsKey, &a)
	if a.AccessKeyHash != hashKey(rotatedAK) {
		t.Errorf("applied record %+v, want the hash of the rotated client_id", a)
	}
}

// RustFS 1.0.x cannot find the probe object of the types whose backend has
// no candidate probe (docs/rustfs-wire.md §4.3): the Tier says which type
// and which release to use, and retries once per poll interval (the same
// answer can mean a remote that did not answer).
func TestGARefusalOfTypesWithoutProbeNamesTheType(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	cr := h.store(tier(h.remote.TierURL(), withType(v1alpha1.TierTypeAzure)))
	h.expect(cr, "create", string(v1alpha1.ReasonTierApplyFailed))
	msg := cr.GetCondition("Ready").Message
	for _, want := range []string{"probe outcome is uncertain", "refuses every Azure tier", "RustFS 1.0.0-rc", ambiguousNote} {
		if !strings.Contains(msg, want) {
			t.Errorf("Ready message %q does not say %q", msg, want)
		}
	}
}
