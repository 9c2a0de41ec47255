package e2e

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// The scenarios of issue 11, one per hole it lists: namespace A is the
// platform's legitimate user, namespace B a hostile one; both may use the
// platform's ClusterProviderConfig, as every namespace may in v0.1.

// reportsLifecycle is the configuration namespace A's team set on bucket
// a-reports out of band (with rc ilm), without a BucketLifecycle.
const reportsLifecycle = `<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
<Rule><ID>expire-tmp</ID><Filter><Prefix>tmp/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>90</Days></Expiration></Rule>
</LifecycleConfiguration>`

// A BucketLifecycle in namespace B can neither put rules on a bucket that
// namespace A's Bucket manages nor delete its configuration: whether A also
// has a BucketLifecycle for it (a-logs), has none and the bucket has no
// configuration (a-photos), or has none and A's team set the configuration
// out of band (a-reports, which B's empty rules would delete).
func TestTenancyLifecycleInAnotherNamespaceCannotChangeABucketItDoesNotManage(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	logs, photos, reports := tn.bucket(tn.a, "a-logs"), tn.bucket(tn.a, "a-photos"), tn.bucket(tn.a, "a-reports")
	keep := tn.lifecycle(tn.a, "a-logs", "", []v1alpha1.LifecycleRule{rule("keep-a-year", expireAfter(365))}, withBucketRef("a-logs"))
	tn.create(logs, photos, reports, keep)
	tn.waitReady(logs, photos, reports, keep)
	if err := tn.local.SetLifecycleXML("a-reports", []byte(reportsLifecycle)); err != nil {
		t.Fatalf("cannot set the lifecycle of a-reports out of band: %v", err)
	}
	buckets := []string{"a-logs", "a-photos", "a-reports"}
	before, mark := tn.liveLifecycles(buckets...), len(tn.local.Requests())

	expire := []v1alpha1.LifecycleRule{rule("expire-tomorrow", expireAfter(1))}
	hostile := []managedObject{
		tn.lifecycle(tn.b, "b-logs", "a-logs", expire),
		tn.lifecycle(tn.b, "b-photos", "a-photos", expire),
		tn.lifecycle(tn.b, "b-reports", "a-reports", []v1alpha1.LifecycleRule{}),
	}
	tn.createAfter([]managedObject{logs, photos, reports, keep}, hostile...)
	tn.waitReconciled(hostile...)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls*len(buckets), nil)

	for _, b := range buckets {
		if w := tn.requestsSince(mark, to(b, rustfstest.RoutePutLifecycle, rustfstest.RouteDeleteLifecycle)); len(w) > 0 {
			t.Errorf("lifecycle writes to bucket %s of namespace A since namespace B's BucketLifecycles appeared: want none, got %v", b, w)
		}
	}
	if diff := cmp.Diff(before, tn.liveLifecycles(buckets...)); diff != "" {
		t.Errorf("live lifecycle configurations of namespace A's buckets: -before, +after B's BucketLifecycles:\n%s", diff)
	}
	tn.expectRefused(v1alpha1.ReasonBucketManagedElsewhere, hostile...)
	tn.waitReady(logs, photos, reports, keep)
}

// A Bucket in namespace B naming namespace A's bucket writes nothing to
// it: it is a duplicate, not an adopter, and the two do not fight over the
// bucket's versioning poll after poll.
func TestTenancyBucketInAnotherNamespaceCannotAdoptABucketItDoesNotOwn(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	mine := tn.bucket(tn.a, "a-ledger", withVersioning(v1alpha1.VersioningEnabled))
	tn.create(mine)
	tn.waitReady(mine)
	mark := len(tn.local.Requests())

	theirs := tn.bucket(tn.b, "b-ledger", withExternalName("a-ledger"), withVersioning(v1alpha1.VersioningSuspended))
	tn.createAfter([]managedObject{mine}, theirs)
	tn.waitReconciled(theirs)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)

	if w := tn.requestsSince(mark, to("a-ledger", rustfstest.RoutePutVersioning, rustfstest.RouteCreateBucket)); len(w) > 0 {
		t.Errorf("writes to bucket a-ledger of namespace A since namespace B's Bucket appeared: want none, got %v", w)
	}
	if v := tn.local.BucketVersioning("a-ledger"); v != string(v1alpha1.VersioningEnabled) {
		t.Errorf("versioning of bucket a-ledger: want Enabled, as namespace A's Bucket says, got %q", v)
	}
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, theirs)
	tn.waitReady(mine)
}

// A Tier in namespace B whose ProviderConfig names the platform's endpoint
// with made-up credentials does not reserve the tier name, though it is the
// oldest Tier naming it: it has no access to RustFS, so it never owns, and
// namespace A's Tier registers the tier.
func TestTenancyProviderConfigWithoutAccessCannotReserveATierName(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	tn.providerConfig(tn.b, "squatter", tn.local.URL(), madeUpAK, madeUpSK)
	squat := tn.tier(tn.b, "b-reserved", "RESERVED", withPrefix("reserved/"), withTierLocalProviderConfig("squatter"))
	tn.create(squat)
	tn.waitReconciled(squat)

	mine := tn.tier(tn.a, "a-reserved", "RESERVED", withPrefix("reserved/"))
	tn.createAfter([]managedObject{squat}, mine)
	tn.eventually(func(g gomega.Gomega) {
		tn.get(g, mine)
		expectCondition(g, mine, xpv2.TypeReady, corev1.ConditionTrue, "")
		expectCondition(g, mine, xpv2.TypeSynced, corev1.ConditionTrue, "")
	})
	tn.awaitPolls(rustfstest.RouteListTiers, polls, nil)

	tn.expectCounts(map[string]int{rustfstest.RouteAddTier: 1, rustfstest.RouteEditTier: 0})
	if live, ok := tn.local.Tier("RESERVED"); !ok || live.AccessKey != remoteAK {
		t.Errorf("live tier RESERVED: want it registered with namespace A's credentials (access key %q), got present=%t access key %q",
			remoteAK, ok, live.AccessKey)
	}
	tn.get(tn.g, squat)
	if c := squat.GetCondition(xpv2.TypeReady); c.Status == corev1.ConditionTrue {
		t.Errorf("Ready of namespace B's Tier, whose credentials RustFS does not know: want not True, got %s", describe(c))
	}
}

// One RustFS reached as 127.0.0.1 by the platform's ClusterProviderConfig
// and as localhost by a ProviderConfig in namespace B (with valid admin
// credentials of its own) is one RustFS: namespace A's older Tier owns the
// tier, and B's Tier never rotates its credentials to B's Secret.
func TestTenancyOneRustFSUnderTwoSpellingsHasOneOwner(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	tn.providerConfig(tn.b, "rustfs", tn.localhostURL(), tenantAdminAK, tenantAdminSK)
	mine := tn.tier(tn.a, "a-shared", "SHARED", withPrefix("shared/"))
	tn.create(mine)
	tn.waitReady(mine)

	theirs := tn.tier(tn.b, "b-shared", "SHARED", withPrefix("shared/"), withTierLocalProviderConfig("rustfs"))
	tn.createAfter([]managedObject{mine}, theirs)
	tn.waitReconciled(theirs)
	tn.awaitPolls(rustfstest.RouteListTiers, polls, nil)

	if n := tn.editsOf("SHARED"); n != 0 {
		t.Errorf("credential edits of tier SHARED, whose owner's Secret did not change: want 0, got %d", n)
	}
	if live, _ := tn.local.Tier("SHARED"); live.AccessKey != remoteAK {
		t.Errorf("live tier SHARED: want namespace A's access key %q, got %q (namespace B's is %q)", remoteAK, live.AccessKey, rotatedAK)
	}
	tn.expectDuplicateTier(theirs)
	tn.waitReady(mine)
}

// liveLifecycles returns the live lifecycle configuration of each bucket,
// "" for none.
func (w *world) liveLifecycles(buckets ...string) map[string]string {
	out := map[string]string{}
	for _, b := range buckets {
		xml, _ := w.local.Lifecycle(b)
		out[b] = string(xml)
	}
	return out
}

// expectRefused waits until every object is Ready=False with reason.
func (w *world) expectRefused(reason xpv2.ConditionReason, objs ...managedObject) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		for _, o := range objs {
			w.get(g, o)
			expectCondition(g, o, xpv2.TypeReady, corev1.ConditionFalse, reason)
		}
	})
}

// expectDuplicateTier waits until every Tier is Ready=False as a duplicate:
// with reason DuplicateTier on Ready, or, as v0.1 reports a duplicate
// (docs/resources.md), Ready reason TierConflict and TierConflict=True
// with reason DuplicateTier.
func (w *world) expectDuplicateTier(objs ...managedObject) {
	w.t.Helper()
	w.eventually(func(g gomega.Gomega) {
		for _, o := range objs {
			w.get(g, o)
			if o.GetCondition(xpv2.TypeReady).Reason == v1alpha1.ReasonTierConflict {
				expectCondition(g, o, v1alpha1.TypeTierConflict, corev1.ConditionTrue, v1alpha1.ReasonDuplicateTier)
				continue
			}
			expectCondition(g, o, xpv2.TypeReady, corev1.ConditionFalse, v1alpha1.ReasonDuplicateTier)
		}
	})
}
