package tier

import (
	"strings"
	"testing"
	"time"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

func TestLiveTierWithDifferentSettingsFailsWithoutWrites(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	live := seeded("https://old.example.com", tierAK)
	live.Bucket, live.Prefix, live.Region = "old-bucket", "old/", "eu-west-1"
	h.local.SeedTier(live)
	cr := h.store(tier(h.remote.TierURL()))

	for range 2 {
		_, err := h.reconcile(cr)
		if reasonOf(err) != string(v1alpha1.ReasonImmutableFieldDrift) {
			t.Fatalf("reconcile: got %v, want a blocking ImmutableFieldDrift", err)
		}
	}
	if w := h.local.Writes(); w != 0 {
		t.Errorf("a conflicting tier caused %d writes, want 0", w)
	}
	if got := get(cr, v1alpha1.TypeTierConflict); got != "True/ImmutableFieldDrift" {
		t.Errorf("TierConflict: got %s, want True/ImmutableFieldDrift", got)
	}
	if got := get(cr, "Ready"); got != "False/TierConflict" {
		t.Errorf("Ready: got %s, want False/TierConflict", got)
	}
	msg := cr.GetCondition(v1alpha1.TypeTierConflict).Message
	for _, want := range []string{
		`spec.forProvider.endpoint is "` + h.remote.TierURL() + `" but RustFS has "https://old.example.com"`,
		`spec.forProvider.bucket is "cold-bucket" but RustFS has "old-bucket"`,
		`spec.forProvider.prefix is "tenant-a/" but RustFS has "old/"`,
		`spec.forProvider.region is "us-east-1" but RustFS has "eu-west-1"`,
		"never removes a tier", "new spec.forProvider.name",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("conflict message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "type") {
		t.Errorf("conflict message names the type, which does not differ:\n%s", msg)
	}
	if cr.Status.AtProvider.Endpoint != "https://old.example.com" {
		t.Errorf("status.atProvider.endpoint: got %q, want the live endpoint", cr.Status.AtProvider.Endpoint)
	}
}

func TestStorageClassOfS3TierIsComparedForConflicts(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	live := seeded("https://s3.example.com", tierAK)
	live.Type, live.StorageClass, live.Prefix = "s3", "GLACIER", "/tenant-a/"
	h.local.SeedTier(live)
	cr := h.store(tier("https://s3.example.com", withType(v1alpha1.TierTypeS3), withStorageClass("STANDARD_IA")))

	_, err := h.reconcile(cr)
	msg := cr.GetCondition(v1alpha1.TypeTierConflict).Message
	if reasonOf(err) != string(v1alpha1.ReasonImmutableFieldDrift) || !strings.Contains(msg, `spec.forProvider.storageClass is "STANDARD_IA" but RustFS has "GLACIER"`) {
		t.Fatalf("got %v with message %q; want a storageClass conflict", err, msg)
	}
	if strings.Contains(msg, "prefix") {
		t.Errorf("an s3 prefix that differs only in slashes was reported:\n%s", msg)
	}
	if cr.Status.AtProvider.Type != v1alpha1.TierTypeS3 {
		t.Errorf("status.atProvider.type: got %q, want the spec spelling S3", cr.Status.AtProvider.Type)
	}
}

func TestConflictClearsAfterSpecIsCorrected(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	live := seeded(h.remote.TierURL(), tierAK)
	live.Prefix = "other/"
	h.local.SeedTier(live)
	cr := h.store(tier(h.remote.TierURL()))
	if _, err := h.reconcile(cr); reasonOf(err) != string(v1alpha1.ReasonImmutableFieldDrift) {
		t.Fatalf("got %v, want a conflict first", err)
	}

	withPrefix("other/")(cr)
	cr.Generation++
	if step, err := h.reconcile(cr); step != "update" || err != nil {
		t.Fatalf("reconcile after the fix: %s, %v; want the adoption edit", step, err)
	}
	if got := get(cr, v1alpha1.TypeTierConflict); got != "False/NoConflict" {
		t.Errorf("TierConflict after the fix: got %s, want False/NoConflict", got)
	}
	if got := get(cr, "Ready"); got != "True/Available" {
		t.Errorf("Ready after the fix: got %s, want True/Available", got)
	}
}

func TestNonEmptyRemotePrefixIsConflictUnlessForced(t *testing.T) {
	inUse := string(v1alpha1.ReasonBackendInUse)
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			h := newHarness(t, mode)
			h.remote.PutObject(remoteBkt, tierPrefix+"restored/object", []byte("data"))
			cr := h.store(tier(h.remote.TierURL()))

			h.expect(cr, "create", inUse)
			var b memo.Block
			if !memo.Get(cr, memo.BlockKey, &b) || b.Op != opAdd {
				t.Fatalf("the refused add was not recorded as a block: %+v", b)
			}
			h.expect(cr, "observe", inUse)
			h.expectCounts(map[string]int{rustfstest.RouteListTiers: 2, rustfstest.RouteAddTier: 1})
			if got := get(cr, v1alpha1.TypeTierConflict); got != "True/BackendInUse" {
				t.Errorf("TierConflict: got %s, want True/BackendInUse", got)
			}
			msg := cr.GetCondition(v1alpha1.TypeTierConflict).Message
			if !strings.Contains(msg, "spec.forProvider.force") || !strings.Contains(msg, "holds no objects") {
				t.Errorf("message lacks the next action:\n%s", msg)
			}

			// RC's 500 and GA's 409 may also be a timeout or active transitions
			// (docs/rustfs-wire.md §13.4): the block lapses after one poll interval.
			h.now = h.now.Add(time.Minute + time.Second)
			h.expect(cr, "create", inUse)

			withForce()(cr)
			cr.Generation++
			probes := h.remote.Count(rustfstest.RouteListObjects)
			h.expect(cr, "create", "")
			if h.remote.Count(rustfstest.RouteListObjects) != probes {
				t.Error("the forced add probed the remote prefix; force=true must skip it")
			}
			h.expect(cr, "none", "")
			if got := get(cr, v1alpha1.TypeTierConflict); got != "False/NoConflict" {
				t.Errorf("TierConflict after the forced add: got %s, want False/NoConflict", got)
			}
		})
	}
}

// A refused add blocks until an input changes. GA answers a missing remote
// bucket with "probe outcome is uncertain", which a remote that did not
// answer gives too (docs/rustfs-wire.md §4.3): that block lapses after one
// poll interval, so the add is retried once per interval, never hot.
func TestRefusedAddBlocksUntilTheSecretChanges(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			h := newHarness(t, mode)
			cr := h.store(tier(h.remote.TierURL(), func(t *v1alpha1.Tier) { t.Spec.ForProvider.Bucket = "missing-bucket" }))

			if _, err := h.reconcile(cr); reasonOf(err) != string(v1alpha1.ReasonTierApplyFailed) {
				t.Fatalf("add to a missing remote bucket: got %v, want a blocking TierApplyFailed", err)
			}
			if _, err := h.reconcile(cr); reasonOf(err) != string(v1alpha1.ReasonTierApplyFailed) || h.local.Count(rustfstest.RouteAddTier) != 1 {
				t.Fatalf("blocked: %v after %d adds; want the block reported and no new add", err, h.local.Count(rustfstest.RouteAddTier))
			}
			h.now = h.now.Add(time.Hour)
			lapses := map[rustfstest.Mode]int{rustfstest.ModeRC: 1, rustfstest.ModeGA: 2}[mode]
			for range 2 {
				if _, err := h.reconcile(cr); reasonOf(err) != string(v1alpha1.ReasonTierApplyFailed) || h.local.Count(rustfstest.RouteAddTier) != lapses {
					t.Fatalf("an hour later: %v after %d adds; want the block reported after %d adds", err, h.local.Count(rustfstest.RouteAddTier), lapses)
				}
			}
			if got := get(cr, "Ready"); got != "False/TierApplyFailed" {
				t.Errorf("Ready: got %s, want False/TierApplyFailed", got)
			}
			if got := get(cr, v1alpha1.TypeTierConflict); got != "False/NoConflict" {
				t.Errorf("TierConflict: got %s, want False/NoConflict for a failure that is not a conflict", got)
			}
			h.rotate(tierAK, tierSK+"-v2")
			if step, _ := h.reconcile(cr); step != "create" || h.local.Count(rustfstest.RouteAddTier) != lapses+1 {
				t.Errorf("after the Secret changed: %s after %d adds; want the add retried once", step, h.local.Count(rustfstest.RouteAddTier))
			}
		})
	}
}
