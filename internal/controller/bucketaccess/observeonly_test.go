package bucketaccess

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A BucketAccess in Observe whose key does not exist creates no key and
// no parent user, adopts nothing and says so, over several polls.
func TestObserveOnlyAdoptsNothing(t *testing.T) {
	testenv.Skip(t)
	c, ns := startCluster(t, time.Second, v1alpha1.NameScopeCluster, "observe")
	x := ns[0] + "-x"
	c.bucket(ns[0], x)
	cr := c.access(ns[0], "watcher", withGrants(grant(x, v1alpha1.AccessReadOnly, "")),
		func(a *v1alpha1.BucketAccess) {
			a.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
		})
	got := c.waitFor(cr, xpv2.TypeReady, "False/"+string(v1alpha1.ReasonObserveOnly), 20*time.Second)
	if msg := got.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "neither creates one nor adopts another") {
		t.Errorf("Ready message does not say that nothing is adopted: %q", msg)
	}
	writes, reads := c.rfs.Writes(), c.rfs.Count(rustfstest.RouteServiceAccountInfo)
	c.g.Eventually(func() int { return c.rfs.Count(rustfstest.RouteServiceAccountInfo) }, 20*time.Second, 100*time.Millisecond).
		Should(gomega.BeNumerically(">=", reads+3), "polls of the key")
	if w := c.rfs.Writes(); w != writes {
		t.Errorf("writes to RustFS in Observe: want none, got %d", w-writes)
	}
	for _, r := range []string{rustfstest.RouteAddServiceAccount, rustfstest.RouteAddUser, rustfstest.RouteSetUserPolicy, rustfstest.RouteAddCannedPolicy} {
		if n := c.rfs.Count(r); n != 0 {
			t.Errorf("requests to %s in Observe: want 0, got %d", r, n)
		}
	}
}
