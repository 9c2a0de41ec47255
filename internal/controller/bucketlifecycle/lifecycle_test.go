package bucketlifecycle

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
)

const (
	isReady    = "True/Available"
	allKept    = "False/AllFieldsKept"
	putRoute   = rustfstest.RoutePutLifecycle
	deleteRule = rustfstest.RouteDeleteLifecycle
)

// twoRules is a spec with a tag-and-prefix filter, a transition on a date
// and an expiration.
func twoRules() lcModifier {
	return withRules(
		specRule("to-cold", func(r *v1alpha1.LifecycleRule) {
			r.Filter = &v1alpha1.LifecycleFilter{And: &v1alpha1.LifecycleFilterAnd{Prefix: "logs/",
				Tags: []v1alpha1.LifecycleTag{{Key: "tier", Value: "cold"}, {Key: "app", Value: "web"}}}}
		}, transitionOn("COLD", "2027-01-01")),
		specRule("expire", prefixed(""), expireAfter(30)),
	)
}

// twoRulesAsServed is twoRules as RustFS renders it: other rule and tag
// order, the empty filter spelled out, the date re-rendered.
const twoRulesAsServed = `<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
<Rule><Expiration><Days>30</Days></Expiration><Filter><Prefix></Prefix></Filter><ID>expire</ID><Status>Enabled</Status></Rule>
<Rule><Filter><And><Prefix>logs/</Prefix><Tag><Key>tier</Key><Value>cold</Value></Tag><Tag><Key>app</Key><Value>web</Value></Tag></And></Filter>
<ID>to-cold</ID><Status>Enabled</Status><Transition><Date>2027-01-01T00:00:00.000Z</Date><StorageClass>COLD</StorageClass></Transition></Rule>
</LifecycleConfiguration>`

func TestAdoptWithoutPut(t *testing.T) {
	h := newHarness(t)
	h.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD"})
	h.setLive(twoRulesAsServed)
	cr := h.store(lifecycle(twoRules()))

	cr = h.converge(cr, 1)
	if got := condition(cr, xpv2.TypeReady); got != isReady {
		t.Errorf("Ready: want %s, got %s", isReady, got)
	}
	if got := condition(cr, v1alpha1.TypeLifecycleDegraded); got != allKept {
		t.Errorf("LifecycleDegraded: want %s, got %s", allKept, got)
	}
	if diff := cmp.Diff([]string{"expire", "to-cold"}, cr.Status.AtProvider.RuleIDs); diff != "" {
		t.Errorf("status.atProvider.ruleIds: -want, +got:\n%s", diff)
	}
	if cr.Status.AtProvider.Rules != 2 {
		t.Errorf("status.atProvider.rules: want 2 (the RULES column), got %d", cr.Status.AtProvider.Rules)
	}
	if w := h.rfs.Writes(); w != 0 {
		t.Errorf("adopting a matching configuration: want no writes, got %d", w)
	}
}

func TestPutOnSpecChange(t *testing.T) {
	h := newHarness(t)
	cr := h.converge(h.store(lifecycle()), 3)
	if n := h.rfs.Count(putRoute); n != 1 {
		t.Fatalf("first apply: want 1 PUT, got %d", n)
	}
	cr = h.edit(cr, withRules(specRule("expire", expireAfter(7))))
	if _, phase, err := h.reconcile(cr); phase != "update" || err != nil {
		t.Fatalf("after a spec change: want an update, got %s (%v)", phase, err)
	}
	cr = h.converge(cr, 1)
	if n := h.rfs.Count(putRoute); n != 2 {
		t.Errorf("spec change: want 2 PUTs in all, got %d", n)
	}
	if !strings.Contains(h.liveXML(), "<Days>7</Days>") {
		t.Errorf("the live configuration does not have the new expiration")
	}
	if got := condition(cr, xpv2.TypeReady); got != isReady {
		t.Errorf("Ready: want %s, got %s", isReady, got)
	}
}

func TestOutOfBandEditCorrected(t *testing.T) {
	h := newHarness(t)
	cr := h.converge(h.store(lifecycle()), 3)
	h.setLive(`<LifecycleConfiguration><Rule><ID>expire</ID><Status>Disabled</Status><Expiration><Days>30</Days></Expiration></Rule></LifecycleConfiguration>`)

	if _, phase, err := h.reconcile(cr); phase != "update" || err != nil {
		t.Fatalf("after an out-of-band edit: want an update, got %s (%v)", phase, err)
	}
	h.converge(cr, 1)
	if !strings.Contains(h.liveXML(), "<Status>Enabled</Status>") {
		t.Errorf("the out-of-band edit was not corrected")
	}
	if n := h.rfs.Count(putRoute); n != 2 {
		t.Errorf("want 2 PUTs in all, got %d", n)
	}
}

func TestDroppedFieldsPutOnce(t *testing.T) {
	h := newHarness(t, rustfstest.WithDroppedLifecycleFields("DelMarkerExpiration"))
	cr := h.store(lifecycle(withRules(specRule("markers", expireAfter(30), delMarkersAfter(3)))))

	cr = h.converge(cr, 3)
	for range 5 {
		if cr, _, _ = h.reconcile(cr); h.rfs.Count(putRoute) != 1 {
			t.Fatalf("polls after a put RustFS dropped a field from: want 1 PUT, got %d", h.rfs.Count(putRoute))
		}
	}
	if got := condition(cr, v1alpha1.TypeLifecycleDegraded); got != "True/FieldsDropped" {
		t.Errorf("LifecycleDegraded: want True/FieldsDropped, got %s", got)
	}
	if msg := cr.GetCondition(v1alpha1.TypeLifecycleDegraded).Message; !strings.Contains(msg, "rules[markers].delMarkerExpiration.days") {
		t.Errorf("LifecycleDegraded message does not name the dropped field: %q", msg)
	}
	at := cr.Status.AtProvider
	if diff := cmp.Diff([]string{"rules[markers].delMarkerExpiration.days"}, at.DroppedFields); diff != "" {
		t.Errorf("status.atProvider.droppedFields: -want, +got:\n%s", diff)
	}
	if at.AppliedHash == "" || at.ObservedHash == "" || at.AppliedHash == at.ObservedHash {
		t.Errorf("status.atProvider hashes: want two different hashes, got %q and %q", at.AppliedHash, at.ObservedHash)
	}
	if got := condition(cr, xpv2.TypeReady); got != isReady {
		t.Errorf("Ready: want %s, got %s", isReady, got)
	}

	// Removing the dropped field from the spec makes it equal to the live
	// configuration: up to date without a put, and nothing dropped.
	cr = h.converge(h.edit(cr, withRules(specRule("markers", expireAfter(30)))), 1)
	if got := condition(cr, v1alpha1.TypeLifecycleDegraded); got != allKept || len(cr.Status.AtProvider.DroppedFields) != 0 {
		t.Errorf("after removing the dropped field: want %s and no dropped fields, got %s and %q",
			allKept, got, cr.Status.AtProvider.DroppedFields)
	}
	// Any other spec change puts again, once.
	h.converge(h.edit(cr, withRules(specRule("markers", expireAfter(31)))), 3)
	if n := h.rfs.Count(putRoute); n != 2 {
		t.Errorf("after a spec change: want 2 PUTs in all, got %d", n)
	}
}

func TestTierNotFoundThenReady(t *testing.T) {
	h := newHarness(t)
	cr := h.store(lifecycle(withRules(specRule("to-cold", transitionTo("COLD", 0)))))

	cr, phase, err := h.reconcile(cr)
	if phase != "create" || err == nil {
		t.Fatalf("first put to an unregistered tier: want a failed create, got %s (%v)", phase, err)
	}
	cr, phase, err = h.reconcile(cr)
	if phase != "update" || err == nil {
		t.Fatalf("retry: want a failed update, got %s (%v)", phase, err)
	}
	if got := condition(cr, xpv2.TypeReady); got != "False/TierNotFound" {
		t.Errorf("Ready: want False/TierNotFound, got %s", got)
	}
	if msg := cr.GetCondition(xpv2.TypeReady).Message; !strings.Contains(msg, "COLD") {
		t.Errorf("the TierNotFound message does not name the storage class: %q", msg)
	}

	h.rfs.SeedTier(rustfstest.TierRecord{Type: "rustfs", Name: "COLD"})
	cr = h.converge(cr, 2)
	if got := condition(cr, xpv2.TypeReady); got != isReady {
		t.Errorf("once the tier is registered, Ready: want %s, got %s", isReady, got)
	}
	if _, ok := cr.GetAnnotations()[keyRetry]; ok {
		t.Errorf("the retry record survived a successful put")
	}
}

func TestBucketNotFound(t *testing.T) {
	h := newHarness(t)
	cr := h.store(lifecycle(withBucket("missing")))

	cr, phase, err := h.reconcile(cr)
	if phase != "observe" || err == nil {
		t.Fatalf("missing bucket: want an Observe error, got %s (%v)", phase, err)
	}
	if got := condition(cr, xpv2.TypeReady); got != "False/BucketNotFound" {
		t.Errorf("Ready: want False/BucketNotFound, got %s", got)
	}
	if w := h.rfs.Writes(); w != 0 {
		t.Errorf("missing bucket: want no writes, got %d", w)
	}
	h.rfs.CreateBucket("missing", false)
	if cr = h.converge(cr, 3); condition(cr, xpv2.TypeReady) != isReady {
		t.Errorf("once the bucket exists, Ready: want %s, got %s", isReady, condition(cr, xpv2.TypeReady))
	}
}

func TestEmptyRulesDelete(t *testing.T) {
	h := newHarness(t)
	cr := h.converge(h.store(lifecycle()), 3)

	cr = h.edit(cr, withRules())
	if _, phase, err := h.reconcile(cr); phase != "update" || err != nil {
		t.Fatalf("emptied rules: want an update, got %s (%v)", phase, err)
	}
	cr = h.converge(cr, 1)
	if h.liveXML() != "" {
		t.Errorf("emptied rules: the bucket still has a lifecycle configuration")
	}
	h.converge(cr, 1)
	if n := h.rfs.Count(deleteRule); n != 1 {
		t.Errorf("emptied rules: want exactly 1 DELETE, got %d", n)
	}
	if _, ok := h.fetch(cr).GetAnnotations()[keyApplied]; ok {
		t.Errorf("the memory of the deleted configuration survived")
	}

	h2 := newHarness(t)
	h2.converge(h2.store(lifecycle(withRules())), 1)
	if w := h2.rfs.Writes(); w != 0 {
		t.Errorf("no rules and no configuration: want no writes, got %d", w)
	}
}

func TestInvalidDateWritesNothing(t *testing.T) {
	h := newHarness(t)
	cr := h.store(lifecycle(withRules(specRule("expire", expireOn("2026-02-30")))))

	cr, phase, err := h.reconcile(cr)
	if phase != "observe" || err == nil {
		t.Fatalf("invalid date: want an Observe error, got %s (%v)", phase, err)
	}
	c := cr.GetCondition(xpv2.TypeReady)
	if c.Reason != v1alpha1.ReasonLifecycleApplyFailed || !strings.Contains(c.Message, "rules[expire].expiration.date") {
		t.Errorf("Ready: want LifecycleApplyFailed naming rules[expire].expiration.date, got %s: %q", c.Reason, c.Message)
	}
	if n := len(h.rfs.Requests()); n != 0 {
		t.Errorf("invalid date: want no request to RustFS, got %d", n)
	}
}

func TestInvalidBucketNameWritesNothing(t *testing.T) {
	h := newHarness(t)
	h.rfs.CreateBucket("app..data", false)
	cr := h.store(lifecycle(withBucket("app..data"), withRules(specRule("expire", expireAfter(30)))))

	cr, phase, err := h.reconcile(cr)
	if phase != "observe" || err == nil {
		t.Fatalf("invalid bucket name: want an Observe error, got %s (%v)", phase, err)
	}
	c := cr.GetCondition(xpv2.TypeReady)
	want := `spec.forProvider.bucket "app..data" is not a valid bucket name: it must not contain two adjacent periods. Set spec.forProvider.bucket to a bucket name`
	if c.Reason != v1alpha1.ReasonInvalidBucketName || !strings.Contains(c.Message, want) {
		t.Errorf("Ready: want InvalidBucketName containing %q, got %s: %q", want, c.Reason, c.Message)
	}
	if n := len(h.rfs.Requests()); n != 0 {
		t.Errorf("invalid bucket name: want no request to RustFS, got %d", n)
	}
}

func TestDeleteRetainsRules(t *testing.T) {
	h := newHarness(t)
	cr := h.converge(h.store(lifecycle()), 3)
	before := len(h.rfs.Requests())
	e, err := h.connector().Connect(ctx(t), cr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Delete(ctx(t), cr); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if n := len(h.rfs.Requests()) - before; n != 0 {
		t.Errorf("Delete: want no request to RustFS, got %d", n)
	}
	if h.liveXML() == "" {
		t.Errorf("Delete removed the rules")
	}
}
