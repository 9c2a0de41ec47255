package e2e

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// With adoption Never, an intent to create forged in namespace B's
// Bucket's status while namespace A's Bucket holds the bucket as Created
// never makes B the holder, even though B's Bucket is the older one and its
// status claims proven access: status is a display copy, A holds the
// bucket's custody record, B reports DuplicateBucket and writes nothing.
// (Under v0.2 the reason was AdoptionNotAllowed.)
func TestTenancyIntentNeverTakesAnotherNamespacesObject(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	tn.configure(func(s *v1alpha1.ClusterProviderConfigSpec) { s.Adoption = v1alpha1.AdoptionNever })
	name := tn.a + "-data"
	theirs := tn.bucket(tn.b, "b-data", withExternalName(name), withVersioning(v1alpha1.VersioningSuspended))
	meta.AddAnnotations(theirs, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
	tn.create(theirs)
	ours := tn.bucket(tn.a, "a-data", withExternalName(name))
	tn.createAfter([]managedObject{theirs}, ours)
	tn.waitReady(ours)
	tn.expectAcquired(v1alpha1.AcquiredCreated, ours)

	mark := len(tn.local.Requests())
	tn.recordIntent(theirs, ours.GetCustody())
	tn.unpause(theirs)
	tn.expectRefused(v1alpha1.ReasonDuplicateBucket, theirs)
	tn.waitReady(ours)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls, nil)

	tn.get(tn.g, theirs)
	if c := theirs.GetCustody(); c == nil || c.Acquired != "" || c.Eligible {
		t.Errorf("namespace B's custody record: want no acquisition and not eligible, got %+v", c)
	}
	tn.expectAcquired(v1alpha1.AcquiredCreated, ours)
	if got := tn.requestsSince(mark, to(name, rustfstest.RouteCreateBucket, rustfstest.RoutePutVersioning)); len(got) > 0 {
		t.Errorf("writes to namespace A's bucket after B's intent: want none, got %v", got)
	}
	if v := tn.local.BucketVersioning(name); v == "Suspended" {
		t.Errorf("versioning of namespace A's bucket: namespace B's Bucket set it to %q", v)
	}
}

// recordIntent writes, through the status subresource, a custody record
// for o that claims the access proven in like and an intent to create
// like's object: what the provider would have recorded for o had it been
// about to create the object.
func (w *world) recordIntent(o managedObject, like *v1alpha1.Custody) {
	w.t.Helper()
	rec := like.DeepCopy()
	rec.Eligible, rec.Acquired = true, v1alpha1.AcquiredCreating
	body, err := json.Marshal(map[string]any{"status": map[string]any{"custody": rec}})
	if err != nil {
		w.t.Fatal(err)
	}
	if err := env.Client.Status().Patch(w.ctx, o, client.RawPatch(types.MergePatchType, body)); err != nil {
		w.t.Fatalf("cannot record an intent for %s: %v", o.GetName(), err)
	}
}

// pause stops the provider from reconciling o.
func (w *world) pause(o managedObject) { w.setPaused(o, `"true"`) }

// unpause removes o's pause annotation, so the provider reconciles it again.
func (w *world) unpause(o managedObject) { w.setPaused(o, "null") }

// setPaused sets o's pause annotation to the JSON value v (null removes it).
func (w *world) setPaused(o managedObject, v string) {
	w.t.Helper()
	patch := []byte(`{"metadata":{"annotations":{"` + meta.AnnotationKeyReconciliationPaused + `":` + v + `}}}`)
	if err := env.Client.Patch(w.ctx, o, client.RawPatch(types.MergePatchType, patch)); err != nil {
		w.t.Fatalf("cannot set the pause annotation of %s to %s: %v", o.GetName(), v, err)
	}
}
