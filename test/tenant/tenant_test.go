package tenant

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	fntenant "github.com/crossplane-contrib/provider-rustfs/internal/function/tenant"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// The operator-shaped example Tenant, its tier pointed at the remote
// emulator, renders through the real engine into a Tier, a Bucket and a
// BucketLifecycle and a BucketAccess that pass validation, reach Ready under
// the provider, and leave RustFS with the tier registered, the bucket
// created and the rule transitioning to the tier; an S3 client (the AWS
// SDK) puts and gets an object with the key the access entry's Secret
// holds. A second render fed the live resources
// reports every row ready and the Tenant Ready, and applying it changes no
// composed resource.
func TestTenantComposesReadyResources(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, "default")
	xr := example(t, "tenant.yaml", withTierEndpoint(w.remote.TierURL()))
	w.prepare(spec(t, xr), xr.GetNamespace())

	first := xp.render(t, tenantType, xr)
	xp.validate(t, tenantType, first.all()...)
	expectComposed(t, first, xr)
	w.apply(first.composed...)
	live := w.waitFor(isReady, first.composed...)
	w.expectExampleInRustFS()

	second := xp.render(t, tenantType, xr, live...)
	xp.validate(t, tenantType, second.all()...)
	got := status(t, second.xr)
	want := fntenant.TenantStatus{
		Tiers: []fntenant.TierStatus{{ItemStatus: fntenant.ItemStatus{Name: "COLD", Ready: true, Synced: true, Reason: string(xpv2.ReasonAvailable)},
			Credentials: appliedCredentials(t, live, spec(t, xr).Tiers[0].CredsSecret.Name)}},
		// Usage "0": RustFS reports the new bucket's usage, and it holds nothing.
		Buckets: []fntenant.ItemStatus{{Name: "app-data", Ready: true, Synced: true, Reason: string(xpv2.ReasonAvailable), Usage: "0"}},
		Access: []fntenant.AccessStatus{{ItemStatus: fntenant.ItemStatus{Name: "app", Ready: true, Synced: true, Reason: string(xpv2.ReasonAvailable)},
			SecretName: fntenant.AccessName(xr.GetName(), "app")}},
		Summary: &fntenant.StatusSummary{Tiers: "1/1", Buckets: "1/1"},
	}
	if diff := cmp.Diff(want, got.TenantStatus); diff != "" {
		t.Errorf("second render: Tenant status rows: -want +got:\n%s", diff)
	}
	w.expectAccessWorks(xr.GetNamespace(), want.Access[0].SecretName, "app-data")
	expectComposite(t, got, corev1.ConditionTrue, xpv2.ReasonAvailable)
	w.expectStableApply(live, second.composed)
}

// The example Tenant whose tier COLD was registered out of band on another
// prefix renders, applies and reports, after the second render, the tier's
// row with TierConflict's reason and a message naming prefix; the bucket's
// row is not ready, because its rule waits for the tier. RustFS's tier is
// untouched and no lifecycle rule naming it is put.
func TestTenantReportsTierConflict(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, "tenant-conflict")
	xr := example(t, "tenant.yaml", withName("team-b", "tenant-b"), withProviderConfig(w.pc), withTierEndpoint(w.remote.TierURL()), withoutAccess())
	w.prepare(spec(t, xr), xr.GetNamespace())
	w.seedExampleTier(spec(t, xr).Tiers[0], "other-tenant/")

	first := xp.render(t, tenantType, xr)
	xp.validate(t, tenantType, first.all()...)
	w.apply(first.composed...)
	w.waitFor(hasTierConflict, first.only(v1alpha1.TierKind))
	w.waitFor(isReady, first.only(v1alpha1.BucketKind))
	w.waitFor(isNotSynced, first.only(v1alpha1.BucketLifecycleKind))

	second := xp.render(t, tenantType, xr, w.liveNow(first.composed...)...)
	xp.validate(t, tenantType, second.all()...)
	got := status(t, second.xr)
	want := fntenant.TenantStatus{
		// No credentials: the Tier in conflict applied none.
		Tiers:   []fntenant.TierStatus{{ItemStatus: fntenant.ItemStatus{Name: "COLD", Reason: string(v1alpha1.ReasonImmutableFieldDrift)}}},
		Buckets: []fntenant.ItemStatus{{Name: "app-data", Synced: false, Reason: string(v1alpha1.ReasonWaitingForReference), Usage: "0"}},
		Summary: &fntenant.StatusSummary{Tiers: "0/1", Buckets: "0/1", Conflicts: 1},
	}
	if diff := cmp.Diff(want, got.TenantStatus, cmpopts.IgnoreFields(fntenant.ItemStatus{}, "Message")); diff != "" {
		t.Errorf("second render: Tenant status rows: -want +got:\n%s", diff)
	}
	expectMessageNames(t, tierRows(got.Tiers), "prefix")
	expectMessageNames(t, got.Buckets, "COLD")
	expectComposite(t, got, corev1.ConditionFalse, xpv2.ReasonCreating)
	w.expectConflictUntouched("COLD", "other-tenant/", "app-data")
}

// The legacy TenantClaim example, as the XTenant Crossplane creates for it,
// renders through the real engine into resources in the claim's namespace
// named after the XTenant, and both the claim and the render pass
// validation.
func TestTenantClaimRenders(t *testing.T) {
	testenv.Skip(t)
	claim := example(t, "tenantclaim.yaml")
	xr := claimed(claim, "x7k2p")

	r := xp.render(t, xtenantType, xr)
	xp.validate(t, xtenantType, append(r.all(), claim)...)
	expectComposed(t, r, xr)
	expectComposite(t, status(t, r.xr), corev1.ConditionFalse, xpv2.ReasonCreating)
}

// expectComposite checks the composite's Synced and Ready conditions.
func expectComposite(t *testing.T, s compositeStatus, ready corev1.ConditionStatus, reason xpv2.ConditionReason) {
	t.Helper()
	for ct, want := range map[xpv2.ConditionType][2]string{
		xpv2.TypeSynced: {string(corev1.ConditionTrue), string(xpv2.ReasonReconcileSuccess)},
		xpv2.TypeReady:  {string(ready), string(reason)},
	} {
		c := s.GetCondition(ct)
		if got := [2]string{string(c.Status), string(c.Reason)}; got != want {
			t.Errorf("composite %s condition: want %v, got %v (%q)", ct, want, got, c.Message)
		}
	}
}

// expectMessageNames checks that every row's message names field.
func expectMessageNames(t *testing.T, rows []fntenant.ItemStatus, field string) {
	t.Helper()
	for _, r := range rows {
		if !containsWord(r.Message, field) {
			t.Errorf("row %s: message does not name %s: %q", r.Name, field, redact(r.Message))
		}
	}
}

// appliedCredentials is what the live Tier records of the credentials it
// applied, after checking that they are the Secret secret's, with the hash
// of the remote's access key: what the Tenant's tier row must show.
func appliedCredentials(t *testing.T, live unstructuredList, secret string) *v1alpha1.TierCredentialsStatus {
	t.Helper()
	for _, u := range live {
		if u.GetKind() != v1alpha1.TierKind {
			continue
		}
		got := &v1alpha1.TierCredentialsStatus{}
		m, _, _ := unstructured.NestedMap(u.Object, "status", "atProvider", "credentials")
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, got); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(remoteAK))
		want := v1alpha1.TierCredentialsStatus{SecretName: secret, SecretResourceVersion: got.SecretResourceVersion, AccessKeyHash: hex.EncodeToString(sum[:])}
		if got.SecretResourceVersion == "" || *got != want {
			t.Fatalf("the Tier records credentials %+v, want %+v with a resourceVersion", *got, want)
		}
		return got
	}
	t.Fatal("no live Tier")
	return nil
}

// tierRows are the rows of the tier statuses, without their credentials.
func tierRows(tiers []fntenant.TierStatus) []fntenant.ItemStatus {
	out := make([]fntenant.ItemStatus, len(tiers))
	for i, r := range tiers {
		out[i] = r.ItemStatus
	}
	return out
}
