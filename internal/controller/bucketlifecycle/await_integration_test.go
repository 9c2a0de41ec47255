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
// lifecycle whose Tier is not Ready fails to resolve once, which its
// status reports, and is then left alone (no backoff retries that would
// take reconciles from the Tiers and Buckets it waits for) until the Tier
// watch enqueues it.
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

	c.g.Eventually(func() int32 { return c.attempts(cr.Name) }, 10*time.Second, 50*time.Millisecond).Should(gomega.Equal(int32(1)))
	c.waitFor(cr, xpv2.TypeSynced, "False/ReconcileError", 5*time.Second)
	// Backoff would retry after about 1, 2 and 4 seconds.
	c.g.Consistently(func() int32 { return c.attempts(cr.Name) }, 4*time.Second, 100*time.Millisecond).
		Should(gomega.Equal(int32(1)), "a lifecycle waiting for its Tier was reconciled again")

	markReady(t, tr)
	c.g.Eventually(func() int { return c.rfs.Count(putRoute) }, 5*time.Second, 50*time.Millisecond).
		Should(gomega.Equal(1), "no put within 5 s of the Tier becoming Ready")
	c.waitFor(cr, xpv2.TypeReady, isReady, 10*time.Second)
}
