package tier

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/memo"
)

func TestMissingTierIsRegisteredWithSecretCredentials(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			h := newHarness(t, mode)
			cr := h.store(tier(h.remote.TierURL()))

			h.expect(cr, "create", "")

			want := rustfstest.TierRecord{Type: "rustfs", Name: "COLD", Endpoint: h.remote.TierURL(), AccessKey: keyLabel(tierAK),
				SecretKey: keyLabel(tierSK), Bucket: remoteBkt, Prefix: tierPrefix, Region: "us-east-1"}
			got, _ := h.liveTier("COLD")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("registered tier: -want +got:\n%s", diff)
			}
			h.expectCounts(map[string]int{rustfstest.RouteListTiers: 1, rustfstest.RouteAddTier: 1})
			// force=false makes RustFS probe the remote prefix; force=true would skip it.
			if n := h.remote.Count(rustfstest.RouteListObjects); n != 1 {
				t.Errorf("remote in-use probes: got %d, want 1 (the add must be sent with force=false)", n)
			}
			if h.invalidated != 1 {
				t.Errorf("tier list invalidations: got %d, want 1 after the write", h.invalidated)
			}
			wantMemo := applied{SecretName: secretName, SecretResourceVersion: tierSecretVersion(t, h), AccessKeyHash: hashKey(tierAK)}
			var gotMemo applied
			if !memo.Get(cr, credentialsKey, &gotMemo) {
				t.Fatal("Create did not record the applied credentials in an annotation")
			}
			if diff := cmp.Diff(wantMemo, gotMemo); diff != "" {
				t.Errorf("applied credentials annotation: -want +got:\n%s", diff)
			}
			if _, ok := cr.GetAnnotations()[memo.BlockKey]; ok {
				t.Error("a successful add left a block annotation")
			}
		})
	}
}

func TestAddedTierIsObservedUpToDateWithAppliedCredentialsInStatus(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	cr := h.store(tier(h.remote.TierURL()))
	h.expect(cr, "create", "")
	h.local.ResetCounters()

	o, err := h.observe(cr)
	if err != nil || !o.ResourceExists || !o.ResourceUpToDate {
		t.Fatalf("Observe: %+v, %v; want an existing, up-to-date tier", o, err)
	}
	want := v1alpha1.TierObservation{
		Type: v1alpha1.TierTypeRustFS, Endpoint: h.remote.TierURL(), Bucket: remoteBkt, Prefix: tierPrefix, Region: "us-east-1",
		AccessKeyHash: hashKey(tierAK),
		Credentials: &v1alpha1.TierCredentialsStatus{SecretName: secretName,
			SecretResourceVersion: tierSecretVersion(t, h), AccessKeyHash: hashKey(tierAK)},
	}
	if diff := cmp.Diff(want, cr.Status.AtProvider); diff != "" {
		t.Errorf("status.atProvider: -want +got:\n%s", diff)
	}
	for ct, w := range map[string]string{"Ready": "True/Available", "TierConflict": "False/NoConflict"} {
		if got := get(cr, xpv2.ConditionType(ct)); got != w {
			t.Errorf("%s: got %s, want %s", ct, got, w)
		}
	}
	h.expectCounts(map[string]int{rustfstest.RouteListTiers: 1})
}

func TestOwnedTierWithUnchangedSecretIsNotRewritten(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			h := newHarness(t, mode)
			cr := h.store(tier(h.remote.TierURL()))
			if _, err := h.reconcile(cr); err != nil {
				t.Fatal(err)
			}
			h.local.ResetCounters()
			for i := range 3 {
				step, err := h.reconcile(cr)
				if step != "none" || err != nil {
					t.Fatalf("steady reconcile %d: %s, %v; want nothing to do", i, step, err)
				}
				if got := h.local.Count(rustfstest.RouteListTiers); got != i+1 {
					t.Errorf("after reconcile %d: %d tier lists, want one per reconcile", i, got)
				}
			}
			if w := h.local.Writes(); w != 0 {
				t.Errorf("steady state wrote %d times, want 0 (%v)", w, h.local.Counts())
			}
		})
	}
}

func TestExternalNameMirrorsTheTierName(t *testing.T) {
	h := newHarness(t, rustfstest.ModeGA)
	cr := h.store(tier(h.remote.TierURL(), withName("WARM-1")))
	if err := (&externalName{kube: h.kube}).Initialize(ctx(t), cr); err != nil {
		t.Fatal(err)
	}
	if got := meta.GetExternalName(h.fetch(cr)); got != "WARM-1" {
		t.Errorf("external name: got %q, want spec.forProvider.name WARM-1 (not metadata.name)", got)
	}
}

func tierSecretVersion(t *testing.T, h *harness) string {
	t.Helper()
	s := tierSecret()
	if err := h.kube.Get(ctx(t), client.ObjectKeyFromObject(s), s); err != nil {
		t.Fatal(err)
	}
	return s.ResourceVersion
}
