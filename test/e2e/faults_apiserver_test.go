package e2e

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// CEL conditions under which the API server refuses the provider's record
// of a write it just made.
const (
	// createdRecord: the custody record that the resource created its
	// RustFS object (status.custody.acquired).
	createdRecord = `has(object.status.custody) && has(object.status.custody.acquired) && object.status.custody.acquired == 'Created'`
	// changedAnnotation (with %[1]s the annotation): the provider's memory
	// of a credential edit or a lifecycle put, replacing an older one.
	changedAnnotation = `has(oldObject.metadata.annotations) && '%[1]s' in oldObject.metadata.annotations && ` +
		`has(object.metadata.annotations) && '%[1]s' in object.metadata.annotations && ` +
		`object.metadata.annotations['%[1]s'] != oldObject.metadata.annotations['%[1]s']`
)

// A refusalCase is a write to RustFS whose record the API server refuses
// for a while.
type refusalCase struct {
	crashCase
	resource, when string
	// subject is the name of the resource whose record is refused.
	subject string
}

func refusalCases() map[string]refusalCase {
	crash := crashCases()
	annotation := func(key string) string { return fmt.Sprintf(changedAnnotation, key) }
	return map[string]refusalCase{
		"TierAdd":        {crashCase: crash["TierAdd"], resource: "tiers/status", when: createdRecord, subject: "cold"},
		"CredentialEdit": {crashCase: crash["CredentialEdit"], resource: "tiers", when: annotation(v1alpha1.Group + "/credentials"), subject: "cold"},
		"LifecyclePut":   {crashCase: crash["LifecyclePut"], resource: "bucketlifecycles", when: annotation(v1alpha1.Group + "/lifecycle"), subject: "data"},
		"BucketCreate":   {crashCase: crash["BucketCreate"], resource: "buckets/status", when: createdRecord, subject: "data"},
	}
}

// The API server refuses the provider's record of a write it just made to
// RustFS (a policy denies the update) for two more reconciles, then takes
// it again. The provider converges without undoing the write, sends
// an add or create only once, and ends with the record in the API server.
// A credential edit or lifecycle put whose record was refused is repeated
// (the provider cannot prove from a read that it holds), with backoff.
func TestFaultAPIServerRefusesTheRecordOfAWrite(t *testing.T) {
	testenv.Skip(t)
	for name, tc := range refusalCases() {
		t.Run(name, func(t *testing.T) { runRefusal(t, tc, v1alpha1.AdoptionAutomatic) })
	}
}

// runRefusal runs refusal case tc with the ClusterProviderConfig's
// adoption policy set to adoption, and returns its world.
func runRefusal(t *testing.T, tc refusalCase, adoption v1alpha1.AdoptionPolicy) *world {
	w := newWorld(t, shortPoll)
	w.configure(func(s *v1alpha1.ClusterProviderConfigSpec) { s.Adoption = adoption })
	if ready := tc.before(w); len(ready) > 0 {
		w.waitReady(ready...)
	}
	w.local.ResetCounters()
	h := record(t, func() string { return tc.state(w) })
	r := w.refuse(tc.resource, tc.when)
	tc.write(w)
	w.eventually(func(g gomega.Gomega) { g.Expect(tc.applied(w)).To(gomega.BeTrue(), "RustFS applied the write") })
	w.waitRefused(named(w.ns, tc.subject), 1)
	w.waitReads(tc.read, 2)
	r.lift()

	objs := w.managed()
	w.waitReady(objs...)
	if tc.recorded != nil {
		tc.recorded(w)
	}
	w.expectNoWritesOnReconcile(tc.read)
	t.Logf("requests to %s: %d; custody: %s", tc.route, w.local.Count(tc.route), acquisitions(objs))
	if tc.sent == 1 {
		if n := w.local.Count(tc.route); n != 1 {
			t.Errorf("requests to %s: want 1, got %d", tc.route, n)
		}
	}
	if diff := cmp.Diff(tc.want, h.Values()); diff != "" {
		t.Errorf("RustFS state over time: -want, +got:\n%s", diff)
	}
	for _, o := range objs {
		if s, ok := o.(interface{ GetCustody() *v1alpha1.Custody }); ok && (s.GetCustody() == nil || !held(s.GetCustody().Acquired)) {
			t.Errorf("%T %s holds no record of having created or adopted its object", o, o.GetName())
		}
	}
	return w
}

// held reports whether a says a resource created or adopted its object.
func held(a v1alpha1.Acquisition) bool {
	return a == v1alpha1.AcquiredCreated || a == v1alpha1.AcquiredAdopted
}
