package bucketlifecycle

import (
	"testing"
	"time"

	"github.com/onsi/gomega"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// TestWaitingLifecycleIsNotRetried runs with a one-hour poll interval: a
// lifecycle whose Tier is not Ready is never passed to the managed
// reconciler (no failed resolution, no backoff retries that would take
// reconciles from the Tiers and Buckets it waits for); its status says
// what it waits for, written once, until the Tier watch enqueues it.
func TestWaitingLifecycleIsNotRetried(t *testing.T) {
	testenv.Skip(t)
	c := startCluster(t, "await", time.Hour)
	c.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD"})
	tr := tierObject(c.ns, "cold", "COLD")
	c.create(tr)
	cr := c.lifecycle("waits", withRules(specRule("to-cold", func(r *v1alpha1.LifecycleRule) {
		r.Transitions = []v1alpha1.Transition{{Days: i32(7), TierRef: &xpv2.NamespacedReference{Name: "cold"}}}
	})))
	c.create(cr)

	waiting := "False/" + string(v1alpha1.ReasonWaitingForReference)
	got := c.waitFor(cr, xpv2.TypeSynced, waiting, 5*time.Second)
	if msg := got.GetCondition(xpv2.TypeReady).Message; msg != "waiting for Tier cold (tier COLD) to become Ready" {
		t.Errorf("Ready message: %q; want it to name the Tier and its tier", msg)
	}
	// Backoff would retry after about 1, 2 and 4 seconds.
	c.g.Consistently(func() string { return c.get(cr).ResourceVersion }, 4*time.Second, 100*time.Millisecond).
		Should(gomega.Equal(got.ResourceVersion), "the waiting lifecycle was written again")
	if n := c.attempts(cr.Name); n != 0 {
		t.Errorf("a lifecycle waiting for its Tier reached the managed reconciler: %d failed resolutions", n)
	}

	markReady(t, tr)
	c.g.Eventually(func() int { return c.rfs.Count(putRoute) }, 5*time.Second, 50*time.Millisecond).
		Should(gomega.Equal(1), "no put within 5 s of the Tier becoming Ready")
	c.waitFor(cr, xpv2.TypeReady, isReady, 10*time.Second)
}
