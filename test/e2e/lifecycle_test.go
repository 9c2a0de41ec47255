package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// tenant returns a Tier COLD, a Bucket data and a BucketLifecycle for data
// whose rule transitions to the Tier by reference, as a Tenant composes
// them.
func (w *world) tenant() (*v1alpha1.Tier, *v1alpha1.Bucket, *v1alpha1.BucketLifecycle) {
	tr := w.tier("cold", "COLD", withPrefix("cold/"))
	b := w.bucket("data")
	lc := w.lifecycle("data", "", []v1alpha1.LifecycleRule{rule("to-cold", toTierRef(7, "cold"))}, withBucketRef("data"))
	return tr, b, lc
}

// Scenario 6: a BucketLifecycle whose rule references a Tier created at the
// same moment is put only after the tier is registered; both become Ready.
func TestScenario6LifecycleReferencingANewTierIsPutOnlyAfterTheTierIsRegistered(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, time.Hour)
	// RustFS validates the remote before it registers a tier, which takes
	// a while; the lifecycle must wait for it.
	w.local.InjectFault(rustfstest.RouteAddTier, rustfstest.Fault{Latency: 2 * time.Second, Times: 1})
	tr, b, lc := w.tenant()
	w.create(lc, b, tr)
	w.waitReady(tr, b, lc)

	added, put := w.routeIndex(rustfstest.RouteAddTier, http.StatusOK), w.routeIndex(rustfstest.RoutePutLifecycle, http.StatusOK)
	if added < 0 || put < 0 || put < added {
		t.Errorf("request order: want the tier add (request %d) before the lifecycle put (request %d)", added, put)
	}
	for _, r := range w.local.Requests() {
		if r.Route == rustfstest.RoutePutLifecycle && r.Status != http.StatusOK {
			t.Errorf("lifecycle put answered %d: the rules were put before RustFS knew the tier", r.Status)
		}
	}
	w.expectCounts(map[string]int{rustfstest.RoutePutLifecycle: 1, rustfstest.RouteAddTier: 1, rustfstest.RouteCreateBucket: 1})
	if xml, _ := w.local.Lifecycle("data"); !strings.Contains(string(xml), "<StorageClass>COLD</StorageClass>") {
		t.Errorf("live lifecycle of bucket data: want a transition to COLD, got %s", xml)
	}
	if got := lc.Spec.ForProvider.Rules[0].Transitions[0].StorageClass; got != "COLD" {
		t.Errorf("resolved storageClass of rule to-cold: want COLD, got %q", got)
	}
	w.expectNoWritesOnReconcile(rustfstest.RouteGetLifecycle, lc)
	w.expectNoWritesOnReconcile(rustfstest.RouteHeadBucket, b)
	w.expectUsers(3)
}

// liveLogsLifecycle is the lifecycle of bucket logs as RustFS holds it: the
// spec's rules in another order, with an explicit empty filter.
const liveLogsLifecycle = `<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
<Rule><ID>to-warm</ID><Filter></Filter><Status>Enabled</Status><Transition><Days>30</Days><StorageClass>WARM</StorageClass></Transition></Rule>
<Rule><ID>expire-tmp</ID><Filter><Prefix>tmp/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>365</Days></Expiration></Rule>
</LifecycleConfiguration>`

// Scenario 7: a bucket whose live lifecycle already equals the spec is
// adopted without a PUT; no write at all reaches RustFS.
func TestScenario7BucketWhoseLiveLifecycleEqualsTheSpecIsAdoptedWithoutAPut(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, time.Hour)
	w.seedTier("WARM", "warm/")
	w.local.CreateBucket("logs", false)
	if err := w.local.SetLifecycleXML("logs", []byte(liveLogsLifecycle)); err != nil {
		t.Fatalf("cannot seed the lifecycle: %v", err)
	}
	b := w.bucket("logs")
	lc := w.lifecycle("logs", "logs", []v1alpha1.LifecycleRule{
		rule("expire-tmp", expireAfter(365), withFilter(v1alpha1.LifecycleFilter{Prefix: "tmp/"})),
		rule("to-warm", toTier(30, "WARM")),
	})
	w.create(b, lc)
	w.waitReady(b, lc)

	if n := w.local.Writes(); n != 0 {
		t.Errorf("writes to RustFS: want 0 when the bucket and its lifecycle already match, got %d (%v)", n, w.local.Counts())
	}
	if !b.Status.AtProvider.Adopted {
		t.Errorf("Bucket status.atProvider.adopted: want true for a bucket that existed")
	}
	if diff := cmp.Diff([]string{"expire-tmp", "to-warm"}, sorted(lc.Status.AtProvider.RuleIDs)); diff != "" {
		t.Errorf("BucketLifecycle status.atProvider.ruleIds: -want, +got:\n%s", diff)
	}
	w.expectNoWritesOnReconcile(rustfstest.RouteGetLifecycle, lc)
}

// Scenario 8: deleting the Tier, Bucket and BucketLifecycle resources
// leaves the tier, the bucket (with its objects) and the rules in RustFS.
func TestScenario8DeletingTheResourcesLeavesTierBucketAndRulesInRustFS(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, time.Hour)
	tr, b, lc := w.tenant()
	w.create(tr, b, lc)
	w.waitReady(tr, b, lc)
	w.local.PutObject("data", "report.csv", []byte("a,b\n"))
	tierBefore, _ := w.local.Tier("COLD")
	rulesBefore, _ := w.local.Lifecycle("data")
	w.local.ResetCounters()

	for _, o := range []managedObject{lc, b, tr} {
		if err := env.Client.Delete(w.ctx, o); err != nil {
			t.Fatalf("cannot delete %T %s: %v", o, o.GetName(), err)
		}
	}
	w.eventually(func(g gomega.Gomega) {
		if n := w.local.Writes(); n != 0 {
			gomega.StopTrying(fmt.Sprintf("RustFS received %d writes while the resources were deleted: %v", n, w.local.Counts())).Now()
		}
		for _, o := range []client.Object{lc, b, tr} {
			err := env.Client.Get(w.ctx, client.ObjectKeyFromObject(o), o)
			g.Expect(apierrors.IsNotFound(err)).To(gomega.BeTrue(), "%T %s still exists (err %v)", o, o.GetName(), err)
		}
	})

	w.expectCounts(map[string]int{
		rustfstest.RouteRemoveTier: 0, rustfstest.RouteDeleteLifecycle: 0, rustfstest.RouteDeleteObject: 0,
		rustfstest.RouteS3NotImplemented: 0, rustfstest.RouteClearTiers: 0,
	})
	if n := w.local.Writes(); n != 0 {
		t.Errorf("writes to RustFS while deleting the resources: want 0, got %d (%v)", n, w.local.Counts())
	}
	if after, ok := w.local.Tier("COLD"); !ok || after != tierBefore {
		t.Errorf("tier COLD after the Tier was deleted: want it unchanged, present=%t", ok)
	}
	if rules, ok := w.local.Lifecycle("data"); !ok || string(rules) != string(rulesBefore) {
		t.Errorf("lifecycle of bucket data after the BucketLifecycle was deleted: want it unchanged, got %s", rules)
	}
	if diff := cmp.Diff([]string{"report.csv"}, w.local.Objects("data")); diff != "" {
		t.Errorf("objects of bucket data after the Bucket was deleted: -want, +got:\n%s", diff)
	}
}
