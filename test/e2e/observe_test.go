package e2e

import (
	"testing"
	"time"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

const observedLifecycle = `<LifecycleConfiguration><Rule><ID>live</ID><Status>Enabled</Status>` +
	`<Filter><Prefix>logs/</Prefix></Filter><Expiration><Days>7</Days></Expiration></Rule></LifecycleConfiguration>`

// Observe-only import: a Tier, a Bucket and a BucketLifecycle with
// managementPolicies [Observe], each of which differs from the live state
// (the Tier's credentials Secret does not even exist), are Ready from what
// they observe and show it in status, and send no
// write of any kind over several polls: no tier verify (which would write
// a probe object on the remote) even though verifies are due every second,
// no versioning or lifecycle PUT.
func TestObserveOnlySendsNoWrite(t *testing.T) {
	testenv.Skip(t)
	w := newStoppedWorld(t, shortPoll)
	w.verify = time.Second
	t.Cleanup(w.startProvider())
	t.Cleanup(w.finish)
	w.seedTier("OBSV", "obsv/")
	w.local.CreateBucket("observed", false)
	w.local.SetVersioning("observed", "Enabled")
	if err := w.local.SetLifecycleXML("observed", []byte(observedLifecycle)); err != nil {
		t.Fatal(err)
	}
	remoteWrites := w.remote.Writes() + w.remote.Count(rustfstest.RoutePutObject)

	tr := w.tier("obsv", "OBSV", withPrefix("obsv/"), withTierPolicies(xpv2.ManagementActionObserve), withTierSecret("not-created"))
	b := w.bucket("observed", withBucketPolicies(xpv2.ManagementActionObserve),
		func(b *v1alpha1.Bucket) { b.Spec.ForProvider.Versioning = v1alpha1.VersioningSuspended })
	lc := w.lifecycle("observed", "observed", []v1alpha1.LifecycleRule{rule("other", expireAfter(30))},
		withLifecyclePolicies(xpv2.ManagementActionObserve))
	w.create(tr, b, lc)
	w.waitReady(tr, b, lc)

	w.expectNoWritesOnReconcile(rustfstest.RouteHeadBucket, tr, b, lc)
	if n := w.local.Writes(); n != 0 {
		t.Errorf("writes to RustFS: want 0 in Observe, got %d", n)
	}
	w.expectCounts(map[string]int{rustfstest.RouteVerifyTier: 0, rustfstest.RoutePutVersioning: 0, rustfstest.RoutePutLifecycle: 0})
	if n := w.remote.Writes() + w.remote.Count(rustfstest.RoutePutObject); n != remoteWrites {
		t.Errorf("writes to the remote: want none (no verify probe), got %d", n-remoteWrites)
	}
	w.eventually(func(g gomega.Gomega) {
		w.get(g, tr)
		w.get(g, b)
		expectCondition(g, tr, v1alpha1.TypeRemoteHealthy, corev1.ConditionUnknown, v1alpha1.ReasonObserveOnly)
		g.Expect(b.Status.AtProvider.Versioning).To(gomega.Equal(v1alpha1.VersioningEnabled), "live versioning in status")
		g.Expect(tr.Status.AtProvider.Prefix).To(gomega.Equal("obsv/"), "live prefix in status")
	})
	if got := w.local.BucketVersioning("observed"); got != "Enabled" {
		t.Errorf("versioning of observed: want Enabled kept, got %q", got)
	}
}
