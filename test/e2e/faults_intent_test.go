package e2e

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// createCases are the writes that make a RustFS object a resource then
// holds as Created: a tier add and a bucket create.
var createCases = []string{"TierAdd", "BucketCreate"}

// With adoption Never, a tier add or bucket create whose answer is lost
// after RustFS applied it is not refused as an adoption: the intent the
// provider recorded before the write makes the object it finds its own.
// The write is sent once and the record says Created.
func TestFaultAdoptionNeverLostAnswerOnCreate(t *testing.T) {
	testenv.Skip(t)
	crash := crashCases()
	for _, mode := range modes {
		for _, name := range createCases {
			tc := crash[name]
			t.Run(mode.String()+"/"+name, func(t *testing.T) {
				w := newWorld(t, shortPoll, rustfstest.WithMode(mode))
				w.configure(func(s *v1alpha1.ClusterProviderConfigSpec) { s.Adoption = v1alpha1.AdoptionNever })
				w.local.InjectFault(tc.route, rustfstest.Fault{Lost: rustfstest.LossReset, Times: 1})
				tc.write(w)
				w.eventually(func(g gomega.Gomega) { g.Expect(tc.applied(w)).To(gomega.BeTrue(), "RustFS applied the write") })
				objs := w.managed()
				w.waitReady(objs...)
				w.expectAcquired(v1alpha1.AcquiredCreated, objs...)
				if n := w.local.Count(tc.route); n != 1 {
					t.Errorf("requests to %s: want 1 (the one whose answer was lost), got %d", tc.route, n)
				}
				w.expectNoWritesOnReconcile(tc.read)
			})
		}
	}
}

// With adoption Never, the API server refusing the record of a tier add or
// bucket create does not leave the resource refusing its own object.
func TestFaultAdoptionNeverAPIServerRefusesTheRecordOfACreate(t *testing.T) {
	testenv.Skip(t)
	refusals := refusalCases()
	for _, name := range createCases {
		t.Run(name, func(t *testing.T) {
			w := runRefusal(t, refusals[name], v1alpha1.AdoptionNever)
			w.expectAcquired(v1alpha1.AcquiredCreated, w.managed()...)
		})
	}
}

// With adoption Never, a provider that stops between a tier add or bucket
// create and its answer is followed by one that holds the object as
// Created.
func TestFaultAdoptionNeverProviderRestartMidCreate(t *testing.T) {
	testenv.Skip(t)
	crash := crashCases()
	for _, name := range createCases {
		t.Run(name, func(t *testing.T) {
			w := runCrash(t, rustfstest.ModeGA, crash[name], v1alpha1.AdoptionNever)
			w.expectAcquired(v1alpha1.AcquiredCreated, w.managed()...)
		})
	}
}

// expectAcquired waits until every object's custody record says a.
func (w *world) expectAcquired(a v1alpha1.Acquisition, objs ...managedObject) {
	w.t.Helper()
	if len(objs) == 0 {
		w.t.Fatal("no managed resources to check")
	}
	w.eventually(func(g gomega.Gomega) {
		for _, o := range objs {
			w.get(g, o)
			s, ok := o.(interface{ GetCustody() *v1alpha1.Custody })
			g.Expect(ok).To(gomega.BeTrue(), "%T keeps a custody record", o)
			c := s.GetCustody()
			g.Expect(c).NotTo(gomega.BeNil(), "custody record of %s", o.GetName())
			g.Expect(c.Acquired).To(gomega.Equal(a), "status.custody.acquired of %s", o.GetName())
		}
	})
}

// With adoption Never, a bucket's first lifecycle put whose answer is lost
// after RustFS stored the rules is recorded as Created, not refused as an
// adoption. RustFS may receive the put once more (a read cannot prove the
// provider's memory of what it put), never other rules.
func TestFaultAdoptionNeverLostAnswerOnFirstLifecyclePut(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, shortPoll, rustfstest.WithMode(rustfstest.ModeGA))
	w.configure(func(s *v1alpha1.ClusterProviderConfigSpec) { s.Adoption = v1alpha1.AdoptionNever })
	b := w.bucket("data")
	w.create(b)
	w.waitReady(b)
	versions := record(t, w.lifecycleVersion)
	w.local.InjectFault(rustfstest.RoutePutLifecycle, rustfstest.Fault{Lost: rustfstest.LossReset, Times: 1})
	lc := w.lifecycle("data", "data", []v1alpha1.LifecycleRule{rule("expire", expireAfter(30))})
	w.create(lc)
	w.waitReady(lc)
	w.expectAcquired(v1alpha1.AcquiredCreated, lc)
	if n := w.local.Count(rustfstest.RoutePutLifecycle); n < 1 || n > 2 {
		t.Errorf("lifecycle puts: want the lost one and at most one more, got %d", n)
	}
	if diff := cmp.Diff([]string{"none", "v1"}, versions.Values()); diff != "" {
		t.Errorf("lifecycle of bucket data over time: -want, +got:\n%s", diff)
	}
	w.expectNoWritesOnReconcile(rustfstest.RouteGetLifecycle, lc)
}
