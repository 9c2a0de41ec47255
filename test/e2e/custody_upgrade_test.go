package e2e

import (
	"testing"

	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/custody"
	"github.com/crossplane-contrib/provider-rustfs/internal/controller/upgrade"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// The upgrade from v0.2 (issue 26, rule 10): a bucket that v0.2 status of
// one namespace's Bucket claims as Created gets a record held by that
// Bucket; a bucket that Buckets of two namespaces claim gets a record with
// no holder, and both Buckets are refused as CustodyDisputed and write
// nothing.
func TestCustodyUpgradeFromV02Status(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, shortPoll)
	b := w.addNamespace()
	probe := w.bucket("probe")
	w.create(probe)
	w.waitReady(probe)
	w.expectHeldBy(probe, w.ns)
	v02 := probe.GetCustody().DeepCopy()
	v02.Record, v02.Eligible = "", true

	w.local.CreateBucket("solo", false)
	w.local.CreateBucket("contested", false)
	solo := w.bucket("solo", withExternalName("solo"), withVersioning(v1alpha1.VersioningEnabled))
	ours := w.bucket("a-contested", withExternalName("contested"), withVersioning(v1alpha1.VersioningEnabled))
	theirs := bucket(b, "b-contested", withExternalName("contested"), withVersioning(v1alpha1.VersioningSuspended), withBucketProviderConfig(w.pc))
	buckets := []*v1alpha1.Bucket{solo, ours, theirs}
	w.createV02(v02, buckets...)
	marker := &v1alpha1.CustodyRecord{ObjectMeta: metav1.ObjectMeta{Name: upgrade.Marker}}
	_ = env.Client.Delete(w.ctx, marker) // a previous run of this test made it
	store := custody.Store{Kube: env.Client, Reader: env.Client}
	if err := upgrade.Run(w.ctx, store); err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	mark := len(w.local.Requests())
	for _, o := range buckets {
		w.unpause(o)
	}

	w.waitReady(solo)
	w.expectHeldBy(solo, w.ns)
	if r := w.recordOf(solo.GetCustody().Record); r == nil || r.Spec.Phase != v1alpha1.PhaseCreated {
		t.Errorf("record of solo: want phase Created, as v0.2 status said, got %+v", r)
	}
	w.eventually(func(g gomega.Gomega) {
		for _, o := range []*v1alpha1.Bucket{ours, theirs} {
			w.get(g, o)
			expectCondition(g, o, xpv2.TypeReady, corev1.ConditionFalse, v1alpha1.ReasonCustodyDisputed)
		}
	})
	w.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)
	if got := w.writesSince(mark, "contested"); len(got) > 0 {
		t.Errorf("writes to the disputed bucket: want none, got %v", got)
	}
	r, err := store.Get(w.ctx, v1alpha1.CustodyRecordName(v02.Identity, v1alpha1.CustodyBucket, "contested"))
	if err != nil || r == nil || r.Spec.Holder != nil || r.Spec.Phase != v1alpha1.PhaseDisputed {
		t.Errorf("record of the contested bucket: want Disputed with no holder, got %+v (%v)", r, err)
	}
}

// createV02 creates buckets paused, with v0.2 status claiming their
// external names as Created, copied from like.
func (w *world) createV02(like *v1alpha1.Custody, buckets ...*v1alpha1.Bucket) {
	w.t.Helper()
	for _, o := range buckets {
		paused(o)
		w.create(o)
		rec := like.DeepCopy()
		rec.Object, rec.Acquired = meta.GetExternalName(o), v1alpha1.AcquiredCreated
		w.asTenant(env.Client, o, true, map[string]any{"status": map[string]any{"custody": rec}})
	}
}
