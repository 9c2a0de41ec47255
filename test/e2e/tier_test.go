package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Scenario 1: a Tier declared with the live settings of a tier registered
// out of band is Ready, adopted with exactly one credential edit; later
// reconciles make no writes.
func TestScenario1TierWithLiveSettingsIsAdoptedWithOneCredentialEdit(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, shortPoll)
	w.seedTier("STORJ", "storj/")
	tr := w.tier("storj", "STORJ", withPrefix("storj/"))
	w.create(tr)
	w.waitReady(tr)

	w.expectCounts(map[string]int{rustfstest.RouteAddTier: 0, rustfstest.RouteEditTier: 1})
	if live, _ := w.local.Tier("STORJ"); live.AccessKey != remoteAK || live.SecretKey != remoteSK {
		t.Errorf("live tier STORJ: want the credentials of Secret %s, got access key %q (secret key not shown)", tierSecretName, live.AccessKey)
	}
	w.expectCredentialsStatus(tr, tierSecretName)
	if !tr.Status.AtProvider.Adopted {
		t.Errorf("status.atProvider.adopted: want true for a tier registered out of band")
	}
	w.expectNoWritesOnReconcile(rustfstest.RouteListTiers, tr)
}

// Scenario 2: a Tier declared with a different prefix than the live tier
// reports TierConflict naming prefix, and writes nothing.
func TestScenario2TierWithDifferentPrefixIsAConflictWithoutWrites(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, shortPoll)
	w.seedTier("LATE", "late-old/")
	tr := w.tier("late", "LATE", withPrefix("late-new/"))
	w.create(tr)
	w.waitConflict(tr, "prefix")

	if n := w.local.Writes(); n != 0 {
		t.Errorf("writes to RustFS: want 0 for a conflicting tier, got %d", n)
	}
	w.expectNoWritesOnReconcile(rustfstest.RouteListTiers, tr)
	if live, _ := w.local.Tier("LATE"); live.Prefix != "late-old/" || live.AccessKey != oldTierAK {
		t.Errorf("live tier LATE changed: prefix %q, access key %q", live.Prefix, live.AccessKey)
	}
}

// Scenario 3: the conflicting Tier's prefix corrected in the spec is
// adopted on the next reconcile and becomes Ready.
func TestScenario3TierPrefixCorrectedInSpecIsAdopted(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, time.Hour)
	w.seedTier("LATE", "late-old/")
	tr := w.tier("late", "LATE", withPrefix("late-new/"))
	w.create(tr)
	w.waitConflict(tr, "prefix")

	if err := env.Edit(w.ctx, tr, func() { tr.Spec.ForProvider.Prefix = "late-old/" }); err != nil {
		t.Fatalf("cannot correct the prefix: %v", err)
	}
	w.waitReady(tr)
	w.eventually(func(g gomega.Gomega) {
		w.get(g, tr)
		expectCondition(g, tr, v1alpha1.TypeTierConflict, corev1.ConditionFalse, v1alpha1.ReasonNoConflict)
	})
	w.expectCounts(map[string]int{rustfstest.RouteAddTier: 0, rustfstest.RouteEditTier: 1})
	if n := w.local.Writes(); n != 1 {
		t.Errorf("writes to RustFS: want exactly the one credential edit of the adoption, got %d", n)
	}
	w.expectCredentialsStatus(tr, tierSecretName)
	w.g.Consistently(w.local.Writes).WithTimeout(time.Second).Should(gomega.Equal(1), "writes after the adoption")
}

// Scenario 4: a Tier on an empty remote prefix is registered, and the admin
// tier list shows the declared settings.
func TestScenario4TierOnEmptyPrefixIsRegisteredWithTheDeclaredSettings(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, shortPoll)
	w.remote.PutObject(remoteBucket, "other-tenant/object", []byte("not under the tier prefix"))
	tr := w.tier("tiers-test", "TIERS-TEST", withPrefix("tiers-test/"))
	w.create(tr)
	w.waitReady(tr)

	w.expectCounts(map[string]int{rustfstest.RouteAddTier: 1, rustfstest.RouteEditTier: 0})
	tiers, err := w.client().ListTiers(w.ctx)
	if err != nil {
		t.Fatalf("ListTiers: %v", err)
	}
	want := []rustfs.Tier{{
		Type: rustfs.TierRustFS, Name: "TIERS-TEST", Endpoint: w.remote.TierURL(), Bucket: remoteBucket,
		Prefix: "tiers-test/", AccessKey: remoteAK,
	}}
	if diff := cmp.Diff(want, tiers, cmpopts.IgnoreFields(rustfs.Tier{}, "SecretKey")); diff != "" {
		t.Errorf("admin tier list: -want, +got:\n%s", diff)
	}
	if live, _ := w.local.Tier("TIERS-TEST"); live.SecretKey != remoteSK {
		t.Errorf("live tier TIERS-TEST: want the secret key of Secret %s (not shown)", tierSecretName)
	}
	w.expectCredentialsStatus(tr, tierSecretName)
	w.expectNoWritesOnReconcile(rustfstest.RouteListTiers, tr)
}

// Scenario 5: updating the credentials Secret gives every Tier using it one
// credential edit within seconds, with a poll interval of an hour, and
// status.atProvider.credentials.secretResourceVersion follows the Secret.
// A Tier using another Secret is not edited.
func TestScenario5SecretUpdateRotatesEveryTierUsingItWithinSeconds(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, time.Hour)
	w.seedTier("STORJ", "storj/")
	w.create(secret(w.ns, "other-tier", remoteAK, remoteSK))
	storj := w.tier("storj", "STORJ", withPrefix("storj/"))
	fresh := w.tier("tiers-test", "TIERS-TEST", withPrefix("tiers-test/"))
	other := w.tier("other", "OTHER", withPrefix("other/"), withTierSecret("other-tier"))
	w.create(storj, fresh, other)
	w.waitReady(storj, fresh, other)
	w.local.ResetCounters()

	s := secret(w.ns, tierSecretName, rotatedAK, rotatedSK)
	if err := env.Client.Update(w.ctx, s); err != nil {
		t.Fatalf("cannot update Secret: %v", err)
	}
	w.within(5*time.Second, func(g gomega.Gomega) {
		for _, tr := range []*v1alpha1.Tier{storj, fresh} {
			name := tr.Spec.ForProvider.Name
			g.Expect(w.editsOf(name)).To(gomega.Equal(1), "credential edits of tier %s", name)
			live, _ := w.local.Tier(name)
			g.Expect(live.AccessKey).To(gomega.Equal(rotatedAK), "access key of tier %s", name)
			g.Expect(live.SecretKey == rotatedSK).To(gomega.BeTrue(), "secret key of tier %s is the rotated one", name)
			w.get(g, tr)
			g.Expect(tr.Status.AtProvider.Credentials).NotTo(gomega.BeNil())
			g.Expect(tr.Status.AtProvider.Credentials.SecretResourceVersion).To(gomega.Equal(s.ResourceVersion))
		}
	})
	w.g.Consistently(w.local.Writes).WithTimeout(time.Second).Should(gomega.Equal(2), "writes after the rotation")
	if n := w.editsOf("OTHER"); n != 0 {
		t.Errorf("credential edits of tier OTHER, whose Secret did not change: want 0, got %d", n)
	}
}

// waitConflict waits until tr reports TierConflict (ImmutableFieldDrift)
// naming field, and Ready=False with reason TierConflict.
func (w *world) waitConflict(tr *v1alpha1.Tier, field string) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		w.get(g, tr)
		expectCondition(g, tr, v1alpha1.TypeTierConflict, corev1.ConditionTrue, v1alpha1.ReasonImmutableFieldDrift)
		expectCondition(g, tr, xpv2.TypeReady, corev1.ConditionFalse, v1alpha1.ReasonTierConflict)
		msg := tr.GetCondition(v1alpha1.TypeTierConflict).Message
		g.Expect(strings.Contains(msg, field)).To(gomega.BeTrue(), "TierConflict message %q names %s", msg, field)
	})
}

// expectCredentialsStatus checks that tr's status records the credentials
// of Secret name at its current resourceVersion.
func (w *world) expectCredentialsStatus(tr *v1alpha1.Tier, name string) {
	w.t.Helper()
	rv := w.secretVersion(name)
	w.eventually(func(g gomega.Gomega) {
		w.get(g, tr)
		c := tr.Status.AtProvider.Credentials
		g.Expect(c).NotTo(gomega.BeNil(), "status.atProvider.credentials")
		g.Expect(c.SecretName).To(gomega.Equal(name))
		g.Expect(c.SecretResourceVersion).To(gomega.Equal(rv))
		g.Expect(c.AccessKeyHash).NotTo(gomega.BeEmpty())
	})
}
