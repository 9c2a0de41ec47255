package bucketlifecycle

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

var env *testenv.Env

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, &env))
}

// A referenceCase creates the object a BucketLifecycle waits for and
// returns it with the modifier that makes the lifecycle reference it.
type referenceCase struct {
	reason string
	setup  func(c *cluster) (referenced, lcModifier)
}

func referenceCases() map[string]referenceCase {
	return map[string]referenceCase{
		"TierRef": {
			reason: "A transition's tierRef resolves once the Tier is Ready.",
			setup: func(c *cluster) (referenced, lcModifier) {
				c.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD"})
				tr := tierObject(c.ns, "cold", "COLD")
				c.create(tr)
				return tr, withRules(specRule("to-cold", func(r *v1alpha1.LifecycleRule) {
					r.Transitions = []v1alpha1.Transition{{Days: i32(7), TierRef: &xpv2.NamespacedReference{Name: "cold"}}}
				}))
			},
		},
		"BucketRef": {
			reason: "bucketRef resolves once the Bucket is Ready.",
			setup: func(c *cluster) (referenced, lcModifier) {
				b := bucketObject(c.ns, "data", bucketName)
				c.create(b)
				return b, func(cr *v1alpha1.BucketLifecycle) {
					cr.Spec.ForProvider.Bucket = ""
					cr.Spec.ForProvider.BucketRef = &xpv2.NamespacedReference{Name: "data"}
				}
			},
		},
	}
}

// TestReadyReferenceTriggersPut runs with a one-hour poll interval: the put
// must follow within 5 seconds of the referenced Tier or Bucket becoming
// Ready, through the watches, not through the poll or the backoff.
func TestReadyReferenceTriggersPut(t *testing.T) {
	testenv.Skip(t)
	for name, tc := range referenceCases() {
		t.Run(name, func(t *testing.T) {
			// Not parallel: every manager reconciles every namespace, and a
			// second one would retry on its own backoff.
			c := startCluster(t, "watch-"+strings.ToLower(name), time.Hour)
			ref, mod := tc.setup(c)
			cr := c.lifecycle("waits", mod)
			c.create(cr)

			// A waiting lifecycle is held back (awaiting), reporting the
			// wait, until the watch enqueues it or the hour-long poll
			// passes, so a put within 5 s is the watch's.
			c.waitFor(cr, xpv2.TypeSynced, "False/"+string(v1alpha1.ReasonWaitingForReference), 30*time.Second)
			if n := c.rfs.Count(putRoute); n != 0 {
				t.Fatalf("%s\nput before the reference was Ready: %d", tc.reason, n)
			}
			markReady(t, ref)
			c.g.Eventually(func() int { return c.rfs.Count(putRoute) }, 5*time.Second, 50*time.Millisecond).
				Should(gomega.Equal(1), "%s\nno put within 5 s of the reference becoming Ready", tc.reason)
			c.waitFor(cr, xpv2.TypeReady, isReady, 10*time.Second)
		})
	}
}

func TestDroppedFieldsOnePutAcrossPolls(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "dropped", 100*time.Millisecond, rustfstest.WithDroppedLifecycleFields("DelMarkerExpiration"))
	cr := c.lifecycle("markers", withRules(specRule("markers", expireAfter(30), delMarkersAfter(3))))
	c.create(cr)

	got := c.waitFor(cr, v1alpha1.TypeLifecycleDegraded, "True/FieldsDropped", 20*time.Second)
	c.waitFor(cr, xpv2.TypeReady, isReady, 10*time.Second)
	if msg := got.GetCondition(v1alpha1.TypeLifecycleDegraded).Message; !strings.Contains(msg, "rules[markers].delMarkerExpiration.days") {
		t.Errorf("LifecycleDegraded does not name the dropped field: %q", msg)
	}
	polls := c.rfs.Count(rustfstest.RouteGetLifecycle)
	c.g.Eventually(func() int { return c.rfs.Count(rustfstest.RouteGetLifecycle) }, 20*time.Second, 50*time.Millisecond).
		Should(gomega.BeNumerically(">=", polls+10), "ten more polls")
	if n := c.rfs.Count(putRoute); n != 1 {
		t.Errorf("across %d polls of a configuration RustFS dropped a field from: want exactly 1 PUT, got %d",
			c.rfs.Count(rustfstest.RouteGetLifecycle), n)
	}
}

func TestTierRegisteredLater(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "late-tier", time.Hour)
	cr := c.lifecycle("to-cold", withRules(specRule("to-cold", transitionTo("COLD", 0))))
	c.create(cr)

	got := c.waitFor(cr, xpv2.TypeReady, "False/TierNotFound", 20*time.Second)
	if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "COLD") {
		t.Errorf("TierNotFound does not name the storage class: %q", msg)
	}
	c.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD"})
	c.waitFor(cr, xpv2.TypeReady, isReady, 70*time.Second)
}

func TestDeletionRetainsRules(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "retain", time.Hour)
	cr := c.lifecycle("kept")
	c.create(cr)
	c.waitFor(cr, xpv2.TypeReady, isReady, 20*time.Second)

	if err := env.Client.Delete(ctx(t), cr); err != nil {
		t.Fatal(err)
	}
	c.g.Eventually(func() bool {
		return kerrors.IsNotFound(env.Client.Get(ctx(t), client.ObjectKeyFromObject(cr), &v1alpha1.BucketLifecycle{}))
	}, 20*time.Second, 50*time.Millisecond).Should(gomega.BeTrue(), "the BucketLifecycle is deleted")
	if _, ok := c.rfs.Lifecycle(bucketName); !ok {
		t.Errorf("deleting the BucketLifecycle removed the bucket's rules")
	}
	if n := c.rfs.Count(deleteRule); n != 0 {
		t.Errorf("deleting the BucketLifecycle: want no DELETE, got %d", n)
	}
	c.events(cr.Name) // checks them for secrets
}

// TestDuplicateTakesOver checks that a second BucketLifecycle of the same
// bucket writes nothing while the first exists, and takes over once the
// first is deleted (the poll interval is one hour: the deletion is seen
// through the watch on BucketLifecycles).
func TestDuplicateTakesOver(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "duplicate", time.Hour)
	first := c.lifecycle("a-first")
	c.create(first)
	c.waitFor(first, xpv2.TypeReady, isReady, 20*time.Second)
	live, _ := c.rfs.Lifecycle(bucketName)

	second := c.lifecycle("b-second", withRules(specRule("other", expireAfter(1))))
	c.create(second)
	got := c.waitFor(second, xpv2.TypeReady, "False/DuplicateLifecycle", 20*time.Second)
	if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "BucketLifecycle a-first already manages") {
		t.Errorf("DuplicateLifecycle does not name the owner: %q", msg)
	}
	if now, _ := c.rfs.Lifecycle(bucketName); c.rfs.Count(putRoute) != 1 || string(now) != string(live) {
		t.Errorf("the duplicate wrote: %d PUTs in all", c.rfs.Count(putRoute))
	}

	if err := env.Client.Delete(ctx(t), first); err != nil {
		t.Fatal(err)
	}
	c.waitFor(second, xpv2.TypeReady, isReady, 20*time.Second)
	if now, _ := c.rfs.Lifecycle(bucketName); !strings.Contains(string(now), "<ID>other</ID>") {
		t.Errorf("the second BucketLifecycle did not put its rules after taking over")
	}
}

// labelled returns o with labels set, for a selector to find it.
func labelled[T client.Object](o T, kv ...string) T {
	l := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		l[kv[i]] = kv[i+1]
	}
	o.SetLabels(l)
	return o
}

// Every way of naming a tier or the bucket by reference reaches the PUT:
// a transition's tierSelector, a noncurrent transition's tierRef and
// tierSelector, and bucketSelector. The real reference resolver of the
// managed reconciler resolves them on the API server, and the configuration
// the emulator stores from the PUT names the selected and referenced tiers,
// under the selected bucket.
func TestReferencesResolveToThePut(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "refs-put", time.Hour)
	for _, tier := range []string{"COLD", "WARM", "GLACIER-1"} {
		c.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: tier})
	}
	cr := byReference(c)
	c.create(cr)
	got := c.waitFor(cr, xpv2.TypeReady, isReady, 30*time.Second)
	if b := got.Spec.ForProvider.Bucket; b != bucketName {
		t.Errorf("bucketSelector resolved to bucket %q, want %q", b, bucketName)
	}
	stored, ok := c.rfs.Lifecycle(bucketName)
	if !ok {
		t.Fatalf("nothing stored for bucket %s", bucketName)
	}
	three, thirty := int32(3), int32(30)
	want := []xRule{
		{ID: "current", Status: "Enabled", Filter: &xFilter{}, Transitions: []xTransition{{Days: i32(7), StorageClass: "WARM"}}},
		{ID: "noncurrent-ref", Status: "Enabled", Filter: &xFilter{}, NoncurrentTransitions: []xNCTrans{{NoncurrentDays: &three, StorageClass: "COLD"}}},
		{ID: "noncurrent-selector", Status: "Enabled", Filter: &xFilter{},
			NoncurrentTransitions: []xNCTrans{{NoncurrentDays: &thirty, Newer: i32(2), StorageClass: "GLACIER-1"}}},
	}
	if diff := cmp.Diff(want, decodeStored(t, stored)); diff != "" {
		t.Errorf("the stored configuration differs from the resolved references (-want +stored):\n%s", diff)
	}
}

// byReference creates Ready Tiers COLD, WARM (labelled tier=warm) and
// GLACIER-1 (tier=glacier) and a Ready Bucket of app-data (bucket=data), and
// returns a BucketLifecycle naming each of them by reference or selector.
func byReference(c *cluster) *v1alpha1.BucketLifecycle {
	refs := []referenced{
		tierObject(c.ns, "cold", "COLD"),
		labelled(tierObject(c.ns, "warm", "WARM"), "tier", "warm"),
		labelled(tierObject(c.ns, "glacier", "GLACIER-1"), "tier", "glacier"),
		labelled(bucketObject(c.ns, "data", bucketName), "bucket", "data"),
	}
	for _, r := range refs {
		c.create(r)
		markReady(c.t, r)
	}
	selector := func(k, v string) *xpv2.NamespacedSelector {
		return &xpv2.NamespacedSelector{MatchLabels: map[string]string{k: v}}
	}
	return c.lifecycle("by-reference", func(cr *v1alpha1.BucketLifecycle) {
		cr.Spec.ForProvider.Bucket = ""
		cr.Spec.ForProvider.BucketSelector = selector("bucket", "data")
	}, withRules(
		specRule("current", func(r *v1alpha1.LifecycleRule) {
			r.Transitions = []v1alpha1.Transition{{Days: i32(7), TierSelector: selector("tier", "warm")}}
		}),
		specRule("noncurrent-ref", func(r *v1alpha1.LifecycleRule) {
			r.NoncurrentVersionTransitions = []v1alpha1.NoncurrentVersionTransition{{NoncurrentDays: 3,
				TierRef: &xpv2.NamespacedReference{Name: "cold"}}}
		}),
		specRule("noncurrent-selector", func(r *v1alpha1.LifecycleRule) {
			r.NoncurrentVersionTransitions = []v1alpha1.NoncurrentVersionTransition{{NoncurrentDays: 30, NewerNoncurrentVersions: i32(2),
				TierSelector: selector("tier", "glacier")}}
		}),
	))
}
