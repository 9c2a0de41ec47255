package e2e

import (
	"testing"

	"github.com/onsi/gomega"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// More of issue 26's takeovers under the default settings, with namespace
// B's tenant acting through a crossplane-edit-like RoleBinding only.

// expectNoWritesTo fails the test if the local RustFS received a write to
// one of names since mark.
func (tn *tenancy) expectNoWritesTo(mark int, why string, names ...string) {
	tn.t.Helper()
	if w := tn.writesSince(mark, names...); len(w) > 0 {
		tn.t.Errorf("%s: want no write to %v, got %v", why, names, w)
	}
}

// Issue 26, point 4: under adoption Never, B writes status.custody of its
// older, paused Bucket (crossplane-edit grants */status), copying A's record of
// A's bucket, and unpauses it. status.custody is a display copy: B gets
// nothing.
func TestCustodyForgedStatusTakesNothingUnderAdoptionNever(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	tn.configure(func(s *v1alpha1.ClusterProviderConfigSpec) { s.Adoption = v1alpha1.AdoptionNever })
	b := tenantClient(t, tn.b)
	forger := tn.bucket(tn.b, "b-forger", withExternalName("a-data"), withVersioning(v1alpha1.VersioningSuspended))
	paused(forger)
	tn.tenantCreate(b, forger)
	mine := tn.bucket(tn.a, "a-data", withVersioning(v1alpha1.VersioningEnabled))
	tn.createAfter([]managedObject{forger}, mine)
	tn.waitReady(mine)
	tn.expectHeldBy(mine, tn.a)
	forged := mine.GetCustody().DeepCopy()
	forged.Eligible, forged.Acquired = true, v1alpha1.AcquiredCreated
	mark := len(tn.local.Requests())
	tn.asTenant(b, forger, true, map[string]any{"status": map[string]any{"custody": forged}})
	tn.tenantUnpause(b, forger)

	tn.eventually(func(g gomega.Gomega) {
		tn.get(g, forger)
		c := forger.GetCondition("Ready")
		g.Expect(c.Reason).To(gomega.BeElementOf(v1alpha1.ReasonDuplicateBucket, v1alpha1.ReasonAdoptionNotAllowed), describe(c))
	})
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)
	tn.expectNoWritesTo(mark, "B forged status.custody of its Bucket", "a-data")
	if v := tn.local.BucketVersioning("a-data"); v != string(v1alpha1.VersioningEnabled) {
		t.Errorf("versioning of a-data: want Enabled, as namespace A's Bucket says, got %q", v)
	}
	tn.expectHeldBy(mine, tn.a)
}

// Issue 26, point 6: RustFS refuses the credentials of A's Bucket for a
// while (the platform's admin Secret holds wrong keys, then the right ones
// again). Before custody records that withdrew A's proven access, and B's
// younger Bucket of the same bucket, on B's own valid ProviderConfig, then
// owned it and set its versioning.
func TestCustodyTransientDenialKeepsTheHolder(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	b := tenantClient(t, tn.b)
	mine := tn.bucket(tn.a, "a-data", withVersioning(v1alpha1.VersioningEnabled))
	tn.create(mine)
	tn.waitReady(mine)
	tn.providerConfig(tn.b, "own", tn.local.URL(), tenantAdminAK, tenantAdminSK)
	younger := bucket(tn.b, "b-younger", withExternalName("a-data"), withVersioning(v1alpha1.VersioningSuspended), withBucketLocalProviderConfig("own"))
	tn.tenantCreate(b, younger)
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, younger)
	mark := len(tn.local.Requests())

	tn.setAdminKeys(madeUpAK, madeUpSK)
	tn.eventually(func(g gomega.Gomega) {
		tn.get(g, mine)
		g.Expect(string(mine.GetCondition("Synced").Status)).To(gomega.Equal("False"), "A's Bucket denied")
	})
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)
	tn.setAdminKeys(localAK, localSK)

	tn.waitReady(mine)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)
	tn.expectNoWritesTo(mark, "after a transient denial of A's credentials", "a-data")
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, younger)
	if v := tn.local.BucketVersioning("a-data"); v != string(v1alpha1.VersioningEnabled) {
		t.Errorf("versioning of a-data: want Enabled, as namespace A's Bucket says, got %q", v)
	}
	tn.expectHeldBy(mine, tn.a)
}

// setAdminKeys sets the keys of the platform's admin Secret.
func (tn *tenancy) setAdminKeys(ak, sk string) {
	tn.t.Helper()
	if err := env.Client.Update(tn.ctx, secret(tn.ns, adminSecretName, ak, sk)); err != nil {
		tn.t.Fatalf("cannot update the admin Secret: %v", err)
	}
}

// Issue 26, point 7: A's Bucket uses A's own ProviderConfig; B's older,
// paused Bucket of the same bucket uses the platform's
// ClusterProviderConfig. Before custody records the latter outranked the
// former at any age.
func TestCustodyClusterProviderConfigDoesNotOutrankANamespacesOwn(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	b := tenantClient(t, tn.b)
	tn.providerConfig(tn.a, "own", tn.local.URL(), localAK, localSK)
	older := tn.bucket(tn.b, "b-older", withExternalName("a-data"), withVersioning(v1alpha1.VersioningSuspended))
	paused(older)
	tn.tenantCreate(b, older)
	mine := bucket(tn.a, "a-data", withVersioning(v1alpha1.VersioningEnabled), withBucketLocalProviderConfig("own"))
	tn.createAfter([]managedObject{older}, mine)
	tn.waitReady(mine)
	mark := len(tn.local.Requests())

	tn.tenantUnpause(b, older)
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, older)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)
	tn.expectNoWritesTo(mark, "B's older Bucket on the ClusterProviderConfig", "a-data")
	tn.expectHeldBy(mine, tn.a)
}

// Issue 26, point 8: B's rules transition B's own bucket into the tier A's
// Tier holds. Before custody records B's objects went into A's tier,
// written with A's remote credentials.
func TestCustodyTransitionIntoAnotherNamespacesTierIsRefused(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	b := tenantClient(t, tn.b)
	myTier := tn.tier(tn.a, "a-cold", "COLD")
	tn.create(myTier)
	tn.waitReady(myTier)
	theirs := tn.bucket(tn.b, "b-own")
	tn.tenantCreate(b, theirs)
	tn.waitReady(theirs)
	mark := len(tn.local.Requests())

	rules := tn.lifecycle(tn.b, "b-rules", "", []v1alpha1.LifecycleRule{rule("to-cold", toTier(30, "COLD"))}, withBucketRef("b-own"))
	tn.tenantCreate(b, rules)
	tn.expectRefused(v1alpha1.ReasonTierNotHeld, rules)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)
	if w := tn.requestsSince(mark, to("b-own", rustfstest.RoutePutLifecycle)); len(w) > 0 {
		t.Errorf("lifecycle puts on B's bucket with a transition into A's tier: want none, got %v", w)
	}
	if xml, ok := tn.local.Lifecycle("b-own"); ok {
		t.Errorf("B's bucket has a lifecycle into A's tier: %s", xml)
	}
	tn.expectHeldBy(myTier, tn.a)
}
