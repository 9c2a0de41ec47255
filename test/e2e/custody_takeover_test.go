package e2e

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// Scenarios of issue 26's list of takeovers under the default settings
// (nameScope Cluster, adoption Automatic): namespace B's tenant, acting
// through a crossplane-edit-like RoleBinding only, takes nothing of
// namespace A's, and the local RustFS's request log shows that B's side
// wrote nothing to A's objects.

// Issue 26, point 1: B points the external name of a Bucket older than
// A's at A's bucket. Before custody records the older Bucket owned the
// bucket and set its versioning.
func TestCustodyOlderBucketRenamedOntoAnotherNamespacesBucketTakesNothing(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	b := tenantClient(t, tn.b)
	older := tn.bucket(tn.b, "b-older", withVersioning(v1alpha1.VersioningSuspended))
	tn.tenantCreate(b, older)
	tn.waitReady(older)
	mine := tn.bucket(tn.a, "a-data", withVersioning(v1alpha1.VersioningEnabled))
	tn.createAfter([]managedObject{older}, mine)
	tn.waitReady(mine)
	mark := len(tn.local.Requests())

	tn.asTenant(b, older, false, map[string]any{"metadata": map[string]any{"annotations": map[string]any{meta.AnnotationKeyExternalName: "a-data"}}})
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, older)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)

	if w := tn.writesSince(mark, "a-data"); len(w) > 0 {
		t.Errorf("writes to namespace A's bucket since B renamed its older Bucket onto it: want none, got %v", w)
	}
	if v := tn.local.BucketVersioning("a-data"); v != string(v1alpha1.VersioningEnabled) {
		t.Errorf("versioning of a-data: want Enabled, as namespace A's Bucket says, got %q", v)
	}
	tn.expectHeldBy(mine, tn.a)
	tn.waitReady(mine)
}

// Issue 26, point 2: B's Tier, Bucket and BucketLifecycle, older than A's
// and paused, are unpaused by B. None takes A's object; the Tier's
// refusal shows nothing of A's live tier, and A's tier keeps A's keys.
func TestCustodyOlderPausedResourcesUnpausedTakeNothing(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	b := tenantClient(t, tn.b)
	keep := []v1alpha1.LifecycleRule{rule("keep-a-year", expireAfter(365))}
	theirTier := tn.tier(tn.b, "b-warm", "WARM")
	theirBucket := tn.bucket(tn.b, "b-data", withExternalName("a-data"), withVersioning(v1alpha1.VersioningSuspended))
	theirRules := tn.lifecycle(tn.b, "b-rules", "a-data", []v1alpha1.LifecycleRule{})
	hostile := []managedObject{theirTier, theirBucket, theirRules}
	for _, o := range hostile {
		paused(o)
	}
	tn.tenantCreate(b, theirTier, theirBucket, theirRules)

	myTier, myBucket := tn.tier(tn.a, "a-warm", "WARM"), tn.bucket(tn.a, "a-data", withVersioning(v1alpha1.VersioningEnabled))
	myRules := tn.lifecycle(tn.a, "a-rules", "", keep, withBucketRef("a-data"))
	tn.createAfter(hostile, myTier, myBucket, myRules)
	tn.waitReady(myTier, myBucket, myRules)
	before, mark := tn.liveLifecycles("a-data"), len(tn.local.Requests())

	for _, o := range hostile {
		tn.tenantUnpause(b, o)
	}
	tn.expectDuplicateTier(theirTier)
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, theirBucket)
	tn.expectRefused(v1alpha1.ReasonBucketManagedElsewhere, theirRules)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)

	if w := tn.writesSince(mark, "a-data", "WARM"); len(w) > 0 {
		t.Errorf("writes since B unpaused its older resources: want none, got %v", w)
	}
	if k := tn.tierKeys("WARM"); k != "remote" {
		t.Errorf("keys of tier WARM: want namespace A's (remote), got %s", k)
	}
	if diff := cmp.Diff(before, tn.liveLifecycles("a-data")); diff != "" {
		t.Errorf("lifecycle of a-data: -before, +after B unpaused:\n%s", diff)
	}
	expectNoMention(t, hostile, tn.remote.TierURL(), remoteBucket, tn.a)
	tn.expectHeldBy(myTier, tn.a)
	tn.expectHeldBy(myBucket, tn.a)
	tn.expectHeldBy(myRules, tn.a)
}

// Issue 26, point 3: B's older BucketLifecycles get their bucket late,
// through a reference to a Bucket B creates afterwards, with empty rules:
// once onto a bucket A's Bucket manages, once onto a bucket no Bucket
// manages whose lifecycle A's BucketLifecycle holds. Before custody records
// the oldest lifecycle won and deleted A's configuration.
func TestCustodyLifecycleBucketSetLateTakesNothing(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	b := tenantClient(t, tn.b)
	lateManaged := tn.lifecycle(tn.b, "b-late", "", []v1alpha1.LifecycleRule{}, withBucketRef("b-alias"))
	lateLoose := tn.lifecycle(tn.b, "b-late-loose", "", []v1alpha1.LifecycleRule{}, withBucketRef("b-alias-loose"))
	tn.tenantCreate(b, lateManaged, lateLoose)
	tn.waitReconciled(lateManaged, lateLoose)

	tn.local.CreateBucket("loose", false)
	keep := []v1alpha1.LifecycleRule{rule("keep-a-year", expireAfter(365))}
	myBucket := tn.bucket(tn.a, "a-logs")
	myRules := tn.lifecycle(tn.a, "a-logs", "", keep, withBucketRef("a-logs"))
	myLoose := tn.lifecycle(tn.a, "a-loose", "loose", keep)
	tn.createAfter([]managedObject{lateManaged, lateLoose}, myBucket, myRules, myLoose)
	tn.waitReady(myBucket, myRules, myLoose)
	before, mark := tn.liveLifecycles("a-logs", "loose"), len(tn.local.Requests())

	// B's Bucket adopts the bucket no Bucket managed (adoption Automatic)
	// and so resolves B's lifecycle to it; B's Bucket of a-logs is a
	// duplicate, so that reference never resolves.
	aliasLoose := tn.bucket(tn.b, "b-alias-loose", withExternalName("loose"))
	tn.tenantCreate(b, tn.bucket(tn.b, "b-alias", withExternalName("a-logs")), aliasLoose)
	tn.waitReady(aliasLoose)
	tn.eventually(func(g gomega.Gomega) {
		tn.get(g, lateLoose)
		c := lateLoose.GetCondition(xpv2.TypeReady)
		g.Expect(lateLoose.Spec.ForProvider.Bucket).To(gomega.Equal("loose"), "bucket of %s resolved", lateLoose.GetName())
		g.Expect(string(c.Status)).To(gomega.Equal(string(corev1.ConditionFalse)), describe(c))
		g.Expect(c.Reason).To(gomega.BeElementOf(v1alpha1.ReasonDuplicateLifecycle, v1alpha1.ReasonBucketManagedElsewhere), describe(c))
		tn.get(g, lateManaged)
		g.Expect(string(lateManaged.GetCondition(xpv2.TypeReady).Status)).NotTo(gomega.Equal(string(corev1.ConditionTrue)), describe(lateManaged.GetCondition(xpv2.TypeReady)))
	})
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)

	for _, bk := range []string{"a-logs", "loose"} {
		if w := tn.requestsSince(mark, to(bk, rustfstest.RoutePutLifecycle, rustfstest.RouteDeleteLifecycle)); len(w) > 0 {
			t.Errorf("lifecycle writes to %s since B's lifecycles got their buckets: want none, got %v", bk, w)
		}
	}
	if diff := cmp.Diff(before, tn.liveLifecycles("a-logs", "loose")); diff != "" {
		t.Errorf("live lifecycles of namespace A: -before, +after B's lifecycles got their buckets:\n%s", diff)
	}
	tn.expectHeldBy(myRules, tn.a)
	tn.expectHeldBy(myLoose, tn.a)
}

// expectNoMention fails the test if the Ready or Synced message of one of
// objs contains one of words.
func expectNoMention(t *testing.T, objs []managedObject, words ...string) {
	t.Helper()
	for _, o := range objs {
		for _, ct := range []xpv2.ConditionType{xpv2.TypeReady, xpv2.TypeSynced} {
			msg := o.GetCondition(ct).Message
			for _, word := range words {
				if strings.Contains(msg, word) {
					t.Errorf("%s of %T %s shows %q of another namespace: %s", ct, o, o.GetName(), word, redact(msg))
				}
			}
		}
	}
}
