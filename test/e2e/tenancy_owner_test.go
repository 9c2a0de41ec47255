package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A user of the local RustFS that may manage tiers and buckets but not
// read the admin info: RustFS refuses it the deployment ID.
const (
	noInfoAK = "no-info"
	noInfoSK = sentinel + "-no-info"
)

// When the owner of a tier name is deleted, the next eligible Tier takes
// over: not the oldest one, whose ProviderConfig's made-up keys never
// proved access, nor the next, in namespace B, which proved access while
// the platform allowed every name but whose name is outside B's slice
// since the platform gave each namespace its own; but A's younger Tier.
// B's Tiers write nothing, and B's tier credentials Secret is never read.
func TestTenancyOwnerHandsOverOnlyToAnEligibleTier(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	tn.providerConfig(tn.b, "squatter", tn.local.URL(), madeUpAK, madeUpSK)
	name := tierSlice(tn.a) + "COLD"
	bTierReads := tn.api.SecretReads(tn.b, tierSecretName)

	squatter := tn.tier(tn.b, "b-squatter", name, withTierLocalProviderConfig("squatter"))
	tn.create(squatter)
	owner := tn.tier(tn.a, "a-cold", name)
	tn.createAfter([]managedObject{squatter}, owner)
	tn.waitReady(owner)
	outside := tn.tier(tn.b, "b-outside", name)
	tn.createAfter([]managedObject{owner}, outside)
	next := tn.tier(tn.a, "a-cold-next", name)
	tn.createAfter([]managedObject{outside}, next)
	tn.expectDuplicateTier(outside, next)
	tn.expectProven(outside)

	tn.configure(func(s *v1alpha1.ClusterProviderConfigSpec) { s.NameScope = v1alpha1.NameScopeNamespacePrefix })
	tn.refusedWithin(eventually, v1alpha1.ReasonNameOutsideNamespace, outside)
	if err := env.Client.Delete(tn.ctx, owner); err != nil {
		t.Fatal(err)
	}
	tn.waitReady(next)
	tn.awaitPolls(rustfstest.RouteListTiers, polls, nil)
	tn.expectNotReady(squatter, outside)
	if live, ok := tn.local.Tier(name); !ok || live.AccessKey != remoteAK {
		t.Errorf("live tier %s: want namespace A's access key %q, got %q (present %t)", name, remoteAK, live.AccessKey, ok)
	}
	tn.expectSecretReads(tn.b, tierSecretName, bTierReads, 0, "namespace B's Tiers, which never own")
}

// expectProven waits until every Tier has proven access to RustFS.
func (w *world) expectProven(objs ...*v1alpha1.Tier) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		for _, o := range objs {
			w.get(g, o)
			c := o.GetCustody()
			g.Expect(c != nil && c.AccessProvenAt != nil).To(gomega.BeTrue(), "Tier %s has proven access: %+v", o.GetName(), c)
		}
	})
}

// expectNotReady checks that no object is Ready.
func (w *world) expectNotReady(objs ...managedObject) {
	w.t.Helper()
	for _, o := range objs {
		w.get(w.g, o)
		if c := o.GetCondition(xpv2.TypeReady); c.Status == "True" {
			w.t.Errorf("%T %s/%s: want not Ready, got %s", o, o.GetNamespace(), o.GetName(), describe(c))
		}
	}
}

// When RustFS refuses the admin info call, a RustFS is identified by its
// normalised endpoint: two ClusterProviderConfigs that spell one endpoint
// differently (a trailing slash) still reach one RustFS, so of two Tiers
// naming one tier, only the older writes, over several polls.
func TestTenancyEndpointFallbackWhenInfoIsRefused(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll, rustfstest.WithUser(noInfoAK, noInfoSK, "admin:SetTier", "admin:ListTier", "s3:*"))
	tn.clusterConfig("spelled-"+tn.a, tn.local.URL())
	tn.clusterConfig("spelled-"+tn.b, tn.local.URL()+"/")
	ours := tn.tier(tn.a, "a-fallback", "FALLBACK", withTierProviderConfig("spelled-"+tn.a))
	tn.create(ours)
	tn.waitReady(ours)
	mark := len(tn.local.Requests())
	theirs := tn.tier(tn.b, "b-fallback", "FALLBACK", withTierProviderConfig("spelled-"+tn.b))
	tn.createAfter([]managedObject{ours}, theirs)
	tn.expectDuplicateTier(theirs)
	tn.awaitPolls(rustfstest.RouteListTiers, polls, nil)
	tn.expectNoWritesSince(mark, "a Tier on the same RustFS under another spelling")
	if live, ok := tn.local.Tier("FALLBACK"); !ok || live.AccessKey != remoteAK {
		t.Errorf("live tier FALLBACK: want namespace A's access key %q, got %q (present %t)", remoteAK, live.AccessKey, ok)
	}
	tn.get(tn.g, ours)
	tn.get(tn.g, theirs)
	a, b := ours.GetCustody(), theirs.GetCustody()
	if a == nil || b == nil || !strings.HasPrefix(a.Identity, "endpoint:") || a.Identity != b.Identity {
		t.Errorf("custody identities: want one endpoint identity for both, got %+v and %+v", a, b)
	}
	if tn.routeIndex(rustfstest.RouteServerInfo, 403) < 0 {
		t.Error("RustFS never refused the admin info call; the scenario does not test the fallback")
	}
}

// clusterConfig creates a ClusterProviderConfig named name for endpoint
// whose Secret, in the platform namespace, holds the no-info user's keys.
func (tn *tenancy) clusterConfig(name, endpoint string) {
	tn.t.Helper()
	tn.create(secret(tn.ns, name, noInfoAK, noInfoSK), &v1alpha1.ClusterProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.ClusterProviderConfigSpec{
			EndpointSettings: v1alpha1.EndpointSettings{Endpoint: endpoint},
			Credentials: v1alpha1.ClusterCredentials{Source: xpv2.CredentialsSourceSecret,
				SecretRef: xpv2.SecretReference{Namespace: tn.ns, Name: name}},
		},
	})
}

// When namespace A's Bucket, holder of a bucket, is deleted, namespace B's
// Bucket of that bucket does not take over (rule 6: the record is Released
// for A), and B's BucketLifecycle of the bucket stays refused: no rules are
// put. (Under v0.2 B's Bucket took over and B's rules were put.)
func TestTenancyLifecycleFollowsTheBucketsOwner(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, time.Hour)
	name := tn.a + "-shared"
	ours := tn.bucket(tn.a, "a-shared", withExternalName(name))
	tn.create(ours)
	tn.waitReady(ours)
	theirs := tn.bucket(tn.b, "b-shared", withExternalName(name))
	rules := tn.lifecycle(tn.b, "b-shared", name, []v1alpha1.LifecycleRule{rule("expire", expireAfter(30))})
	tn.createAll(theirs, rules)
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, theirs)
	tn.expectRefused(v1alpha1.ReasonBucketManagedElsewhere, rules)

	if err := env.Client.Delete(tn.ctx, ours); err != nil {
		t.Fatal(err)
	}
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, theirs)
	tn.expectRefused(v1alpha1.ReasonBucketManagedElsewhere, rules)
	if xml, ok := tn.local.Lifecycle(name); ok {
		t.Errorf("bucket %s: want no lifecycle configuration after A's Bucket left, got %s", name, xml)
	}
}

// A namespaced ProviderConfig that points at a server of namespace B's own,
// which reports the platform RustFS's deployment ID and accepts made-up
// keys, takes nothing: the tiers and buckets namespace A (through the
// platform's ClusterProviderConfig) and namespace C (through a
// ProviderConfig of C's own at the real endpoint) hold keep their custody
// records, and B's Tiers and Buckets of those names write nothing. (Under
// v0.2 a younger platform claim outranked B's; with custody records a
// free name goes to the first claimant, and a held one to no one else.)
func TestTenancyServerClaimingThePlatformsDeploymentBlocksNothing(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	fake := rustfstest.NewServer(rustfstest.WithRootCredentials(madeUpAK, madeUpSK), rustfstest.WithDeploymentID(tn.local.DeploymentID()))
	t.Cleanup(fake.Close)
	tn.providerConfig(tn.b, "fake", fake.URL(), madeUpAK, madeUpSK)
	c := tn.addNamespace()
	tn.create(secret(c, tierSecretName, remoteAK, remoteSK))
	tn.providerConfig(c, "own", tn.local.URL(), tenantAdminAK, tenantAdminSK)

	ours := []managedObject{
		tn.tier(tn.a, "a-platform", "PLATFORM"),
		tn.bucket(tn.a, "a-data", withExternalName(tn.a+"-data")),
		tier(c, "c-own", "OWN", withTierEndpoint(tn.remote.TierURL()), withTierLocalProviderConfig("own")),
		bucket(c, "c-data", withExternalName(c+"-data"), withBucketLocalProviderConfig("own")),
	}
	tn.createAll(ours...)
	tn.waitReady(ours...)
	squat := []managedObject{
		tn.tier(tn.b, "b-platform", "PLATFORM", withTierLocalProviderConfig("fake")),
		tn.bucket(tn.b, "b-platform", withExternalName(tn.a+"-data"), withBucketLocalProviderConfig("fake")),
		tn.tier(tn.b, "b-own", "OWN", withTierLocalProviderConfig("fake")),
		tn.bucket(tn.b, "b-own", withExternalName(c+"-data"), withBucketLocalProviderConfig("fake")),
	}
	tn.createAll(squat...)
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, squat[1], squat[3])
	tn.expectDuplicateTier(squat[0])
	tn.expectDuplicateTier(squat[2])
	for _, name := range []string{"PLATFORM", "OWN"} {
		if live, ok := tn.local.Tier(name); !ok || live.AccessKey != remoteAK {
			t.Errorf("tier %s on the platform's RustFS: want it registered by A or C, got %+v (present %t)", name, live, ok)
		}
	}
	for _, b := range []string{tn.a + "-data", c + "-data"} {
		if got := tn.requestsSince(0, to(b, rustfstest.RouteCreateBucket)); len(got) != 1 {
			t.Errorf("bucket %s on the platform's RustFS: want it created once, got %v", b, got)
		}
	}
	if n := fake.Writes(); n != 0 {
		t.Errorf("B's server received %d writes, want none", n)
	}
}

func withBucketLocalProviderConfig(name string) bucketModifier {
	return func(b *v1alpha1.Bucket) {
		b.Spec.ProviderConfigReference = &xpv2.ProviderConfigReference{Kind: v1alpha1.ProviderConfigKind, Name: name}
	}
}
