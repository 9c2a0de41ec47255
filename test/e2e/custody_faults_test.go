package e2e

import (
	"testing"
	"time"

	"github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A contestCase is a first write of namespace A's resource that goes wrong
// while namespace B's resource naming the same RustFS object appears.
type contestCase struct {
	route string
	// before readies what the write needs.
	before func(w *world) []managedObject
	// mine is A's resource whose create sends the write; rival is B's.
	mine  func(w *world) managedObject
	rival func(w *world, ns string) managedObject
	// duplicate is the reason B's resource is refused with.
	duplicate xpv2.ConditionReason
	applied   func(w *world) bool
}

func contestCases() map[string]contestCase {
	rules := []v1alpha1.LifecycleRule{rule("expire", expireAfter(30))}
	return map[string]contestCase{
		"TierAdd": {route: rustfstest.RouteAddTier, duplicate: v1alpha1.ReasonDuplicateTier,
			mine: func(w *world) managedObject { return w.tier("cold", "COLD") },
			rival: func(w *world, ns string) managedObject {
				return tier(ns, "b-cold", "COLD", withTierEndpoint(w.remote.TierURL()), withTierProviderConfig(w.pc))
			},
			applied: func(w *world) bool { _, ok := w.local.Tier("COLD"); return ok }},
		"BucketCreate": {route: rustfstest.RouteCreateBucket, duplicate: v1alpha1.ReasonDuplicateBucket,
			mine: func(w *world) managedObject { return w.bucket("data") },
			rival: func(w *world, ns string) managedObject {
				return bucket(ns, "b-data", withExternalName("data"), withBucketProviderConfig(w.pc))
			},
			applied: func(w *world) bool { return w.local.HasBucket("data") }},
		"FirstLifecyclePut": {route: rustfstest.RoutePutLifecycle, duplicate: v1alpha1.ReasonBucketManagedElsewhere,
			before: func(w *world) []managedObject { b := w.bucket("data"); w.create(b); return []managedObject{b} },
			mine:   func(w *world) managedObject { return w.lifecycle("data", "data", rules) },
			rival: func(w *world, ns string) managedObject {
				return lifecycle(ns, "b-rules", "data", []v1alpha1.LifecycleRule{}, withLifecycleProviderConfig(w.pc))
			},
			applied: func(w *world) bool { _, ok := w.local.Lifecycle("data"); return ok }},
	}
}

// A first write of namespace A's resource whose answer is lost, or during
// which the provider stops after writing the custody record (Creating) and
// before RustFS applied the write, ends with A's resource Ready, its record
// Created, and namespace B's resource naming the same object, created
// meanwhile, refused (issue 26 acceptance).
func TestCustodyLostAnswerOrStopMidClaimLeavesTheOtherNamespaceNothing(t *testing.T) {
	testenv.Skip(t)
	cases := contestCases()
	runs := []struct {
		name  string
		fault rustfstest.Fault
		stop  bool
	}{
		{"LostAnswer", rustfstest.Fault{Lost: rustfstest.LossReset, Times: 1}, false},
		{"StopBeforeTheWrite", rustfstest.Fault{Reset: true, Latency: 2 * time.Second, Times: 1}, true},
	}
	for _, run := range runs {
		for _, name := range []string{"TierAdd", "BucketCreate", "FirstLifecyclePut"} {
			if run.stop && name == "FirstLifecyclePut" {
				continue // the lifecycle's record phases are those of the bucket create
			}
			tc := cases[name]
			t.Run(run.name+"/"+name, func(t *testing.T) { runContest(t, tc, run.fault, run.stop) })
		}
	}
}

func runContest(t *testing.T, tc contestCase, f rustfstest.Fault, stopMidWrite bool) {
	w := newStoppedWorld(t, shortPoll)
	b := w.addNamespace()
	stop := w.startProvider()
	if tc.before != nil {
		w.waitReady(tc.before(w)...)
	}
	w.local.ResetCounters()
	w.local.InjectFault(tc.route, f)
	mine := tc.mine(w)
	w.create(mine)
	w.eventually(func(g gomega.Gomega) {
		g.Expect(w.local.Count(tc.route)).To(gomega.BeNumerically(">=", 1), "A's write reached RustFS")
	})
	rival := tc.rival(w, b)
	w.create(rival)
	if stopMidWrite {
		stop()
		w.logRecordsOf(w.ns)
		if tc.applied(w) {
			t.Fatalf("RustFS applied the write the provider stopped in")
		}
		stop = w.startProvider()
	}
	t.Cleanup(stop)
	t.Cleanup(w.finish)

	w.waitReady(mine)
	w.eventually(func(g gomega.Gomega) {
		w.get(g, rival)
		expectCondition(g, rival, xpv2.TypeReady, "False", "")
		c := rival.GetCondition(xpv2.TypeReady)
		g.Expect(c.Reason).To(gomega.BeElementOf(tc.duplicate, v1alpha1.ReasonTierConflict), describe(c))
	})
	w.expectCreatedBy(mine, tc.route != rustfstest.RoutePutLifecycle)
	if !tc.applied(w) {
		t.Errorf("RustFS does not hold A's write")
	}
}

// expectCreatedBy fails the test unless mine's record names it, and, if
// created, says Created.
func (w *world) expectCreatedBy(mine managedObject, created bool) {
	w.t.Helper()
	s, ok := mine.(interface{ GetCustody() *v1alpha1.Custody })
	if !ok || s.GetCustody() == nil {
		w.t.Fatalf("%s has no status.custody", mine.GetName())
	}
	r := w.recordOf(s.GetCustody().Record)
	switch {
	case r == nil || r.Spec.Holder == nil:
		w.t.Errorf("record of %s: want it held by A's resource, got %+v", mine.GetName(), r)
	case r.Spec.Holder.Namespace != w.ns || r.Spec.Holder.UID != mine.GetUID():
		w.t.Errorf("record of %s: held by %s/%s, want A's resource", mine.GetName(), r.Spec.Holder.Namespace, r.Spec.Holder.Name)
	case created && r.Spec.Phase != v1alpha1.PhaseCreated:
		w.t.Errorf("phase of the record of %s: want Created, got %s", mine.GetName(), r.Spec.Phase)
	}
}

// logRecordsOf logs the phases of the custody records namespace ns holds.
func (w *world) logRecordsOf(ns string) {
	w.t.Helper()
	l := &v1alpha1.CustodyRecordList{}
	if err := env.Client.List(w.ctx, l, client.MatchingLabels{v1alpha1.LabelCustodyHolderNamespace: ns}); err != nil {
		w.t.Fatal(err)
	}
	for _, r := range l.Items {
		w.t.Logf("record of %s %s held in %s: phase %q", r.Spec.Kind, r.Spec.Object, ns, r.Spec.Phase)
	}
}
