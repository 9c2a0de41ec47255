package tier

import (
	"fmt"
	"testing"
	"time"

	"github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

// tierReconciles returns how many reconciles the Tier controllers of the
// process have finished, from controller-runtime's metrics.
func tierReconciles(t *testing.T) int {
	t.Helper()
	families, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range families {
		if f.GetName() != "controller_runtime_reconcile_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "controller" && l.GetValue() == managed.ControllerName(v1alpha1.TierGroupKind) {
					n += int(m.GetCounter().GetValue())
				}
			}
		}
	}
	return n
}

// reconcileAll makes each Tier reconcile (a user annotation is a change
// of desired state) and waits until the controller finished as many
// reconciles.
func (it *itest) reconcileAll(token string, crs ...*v1alpha1.Tier) {
	it.t.Helper()
	before := tierReconciles(it.t)
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"test.rustfs.m.crossplane.io/poke":%q}}}`, token)
	for _, cr := range crs {
		if err := it.kube.Patch(ctx(it.t), cr, client.RawPatch(types.MergePatchType, []byte(patch))); err != nil {
			it.t.Fatal(err)
		}
	}
	it.g.Eventually(func() int { return tierReconciles(it.t) - before }).WithTimeout(10*time.Second).
		WithPolling(20*time.Millisecond).Should(gomega.BeNumerically(">=", len(crs)), "reconciles after the pokes")
}

func TestTiersShareOneListAndAnOutOfBandRemovalIsRepairedWithHourlyPoll(t *testing.T) {
	it := newITest(t, "sharedlist", nil)
	// WARM is registered out of band and adopted: crossplane-runtime
	// trusts a missing resource only 30 seconds after it created it.
	it.local.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "WARM", Endpoint: it.remote.TierURL(), Bucket: remoteBkt,
		Prefix: "tenant-w/", Region: "us-east-1", AccessKey: tierAK, SecretKey: tierSK})
	cold, warm := it.tier("cold"), it.tier("warm", withName("WARM"), withPrefix("tenant-w/"))
	it.create(cold)
	it.create(warm)
	it.waitFor(cold, 10*time.Second, readyAndFree)
	it.waitFor(warm, 10*time.Second, readyAndFree)

	// Steady state: the Tiers of one endpoint share the list, so
	// reconciles within the refresh interval (the hour-long poll) make no
	// request at all.
	it.local.ResetCounters()
	it.reconcileAll("steady", cold, warm)
	if n, w := it.local.Count(rustfstest.RouteListTiers), it.local.Writes(); n != 0 || w != 0 {
		t.Errorf("two reconciles of Ready Tiers on one endpoint: %d tier lists and %d writes; want 0 and 0", n, w)
	}

	// WARM is removed out of band. The next list, requested after another
	// Tier's add invalidated the shared one, shows it gone, and the Tier
	// naming it is reconciled at once instead of in an hour.
	admin, err := rustfs.New(rustfs.Config{Endpoint: it.local.URL(), AccessKey: adminAK, SecretKey: adminSK})
	if err != nil {
		t.Fatal(err)
	}
	if err := admin.RemoveTier(ctx(t), "WARM", false); err != nil {
		t.Fatal(err)
	}
	it.local.ResetCounters()
	hot := it.tier("hot", withName("HOT"), withPrefix("tenant-h/"))
	it.create(hot)
	it.waitFor(hot, 10*time.Second, readyAndFree)
	it.g.Eventually(func() bool {
		_, ok := it.local.Tier("WARM")
		return ok
	}).WithTimeout(5*time.Second).WithPolling(50*time.Millisecond).Should(gomega.BeTrue(),
		"WARM, removed out of band, was not registered again within 5 seconds of HOT being Ready")
	it.waitFor(warm, 5*time.Second, readyAndFree)
	if a, e := it.local.Count(rustfstest.RouteAddTier), it.local.Count(rustfstest.RouteEditTier); a != 2 || e != 0 {
		t.Errorf("writes after the removal: %d adds and %d edits; want the adds of HOT and WARM only", a, e)
	}
	it.checkNoSecrets(warm)
}
