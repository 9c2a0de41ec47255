package tenant

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	fntenant "github.com/crossplane-contrib/provider-rustfs/internal/function/tenant"
)

// only returns the single composed resource of kind.
func (r rendered) only(kind string) *unstructured.Unstructured {
	var out *unstructured.Unstructured
	for _, o := range r.composed {
		if o.GetKind() == kind {
			if out != nil {
				panic("more than one composed " + kind)
			}
			out = o
		}
	}
	if out == nil {
		panic("no composed " + kind)
	}
	return out
}

// expectComposed checks which resources a render composed for xr: one Tier
// per tier, one Bucket per bucket with the bucket's name as external name,
// one BucketLifecycle per bucket with a lifecycle whose transitions to the
// Tenant's tiers reference their Tiers, all in the namespace of xr (or of
// its claim) under the names the function documents, and one
// BucketAccess per access entry.
func expectComposed(t *testing.T, r rendered, xr *unstructured.Unstructured) {
	t.Helper()
	s, name := spec(t, xr), xr.GetName()
	ns := xr.GetNamespace()
	if ns == "" {
		ns = xr.GetLabels()[fntenant.LabelClaimNamespace]
	}
	var want, got []string
	for _, tr := range s.Tiers {
		want = append(want, ref(v1alpha1.TierKind, ns, fntenant.TierName(name, tr.Name), ""))
	}
	for _, b := range s.Buckets {
		want = append(want, ref(v1alpha1.BucketKind, ns, fntenant.BucketName(name, b.Name), b.Name))
		if b.Lifecycle != nil {
			want = append(want, ref(v1alpha1.BucketLifecycleKind, ns, fntenant.LifecycleName(name, b.Name), ""))
		}
	}
	for _, a := range s.Access {
		want = append(want, ref(v1alpha1.BucketAccessKind, ns, fntenant.AccessName(name, a.Name), ""))
	}
	for _, o := range r.composed {
		ext := ""
		if o.GetKind() == v1alpha1.BucketKind {
			ext = meta.GetExternalName(o)
		}
		got = append(got, ref(o.GetKind(), o.GetNamespace(), o.GetName(), ext))
	}
	if diff := cmp.Diff(sorted(want), sorted(got)); diff != "" {
		t.Errorf("composed resources: -want +got:\n%s", diff)
	}
	expectTierRefs(t, r.only(v1alpha1.BucketLifecycleKind), fntenant.TierName(name, s.Tiers[0].Name))
}

func ref(kind, ns, name, externalName string) string {
	return fmt.Sprintf("%s %s/%s %s", kind, ns, name, externalName)
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// expectTierRefs checks that every transition of a composed
// BucketLifecycle references the Tier tier.
func expectTierRefs(t *testing.T, u *unstructured.Unstructured, tier string) {
	t.Helper()
	var lc v1alpha1.BucketLifecycle
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &lc); err != nil {
		t.Fatalf("cannot decode BucketLifecycle %s: %v", u.GetName(), err)
	}
	n := 0
	for _, r := range lc.Spec.ForProvider.Rules {
		for _, tr := range r.Transitions {
			n++
			if tr.TierRef == nil || tr.TierRef.Name != tier {
				t.Errorf("rule %s: transition references %v, want Tier %s", r.ID, tr.TierRef, tier)
			}
		}
	}
	if n == 0 {
		t.Errorf("BucketLifecycle %s has no transition", u.GetName())
	}
}

// hasTierConflict checks that a Tier reports TierConflict.
func hasTierConflict(g gomega.Gomega, u *unstructured.Unstructured) {
	c := conditions(u).GetCondition(v1alpha1.TypeTierConflict)
	g.Expect(c.Status).To(gomega.Equal(corev1.ConditionTrue), "TierConflict of %s: %s %s", u.GetName(), c.Reason, redact(c.Message))
}

// isNotSynced checks that a managed resource reports Synced=False.
func isNotSynced(g gomega.Gomega, u *unstructured.Unstructured) {
	c := conditions(u).GetCondition(xpv2.TypeSynced)
	g.Expect(c.Status).To(gomega.Equal(corev1.ConditionFalse), "Synced of %s %s: %s", u.GetKind(), u.GetName(), c.Reason)
}

// liveNow is live, failing the test on error.
func (w *world) liveNow(objs ...*unstructured.Unstructured) unstructuredList {
	w.t.Helper()
	return w.live(w.g, objs...)
}

// expectStableApply applies a later render of resources whose live state
// was before and checks that their specs did not change: what the function
// renders for Ready resources agrees with what the provider resolved.
func (w *world) expectStableApply(before, next unstructuredList) {
	w.t.Helper()
	w.reapply(next...)
	after := w.liveNow(before...)
	for i, b := range before {
		a := after[i]
		if a.GetGeneration() != b.GetGeneration() {
			bs, _, _ := unstructured.NestedMap(b.Object, "spec")
			as, _, _ := unstructured.NestedMap(a.Object, "spec")
			w.t.Errorf("%s %s: applying the second render changed its spec (generation %d -> %d): -before +after:\n%s",
				a.GetKind(), a.GetName(), b.GetGeneration(), a.GetGeneration(), cmp.Diff(bs, as))
		}
	}
}

// containsWord reports whether s contains word as a whole word.
func containsWord(s, word string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`).MatchString(s)
}

// seedExampleTier registers tier in the local RustFS out of band, as
// `rc ilm tier add` would, with prefix instead of the tier's and keys the
// provider does not know.
func (w *world) seedExampleTier(tr fntenant.TenantTier, prefix string) {
	w.local.SeedTier(rustfstest.TierRecord{
		Type: "rustfs", Name: tr.Name, Endpoint: tr.Endpoint, Bucket: tr.Bucket, Prefix: prefix, Region: tr.Region,
		AccessKey: outOfBandAK, SecretKey: sentinel + "-out-of-band",
	})
}

// outOfBandAK is the access key of a tier registered out of band.
const outOfBandAK = "out-of-band"

// expectExampleInRustFS checks what the example Tenant leaves in the local
// RustFS: tier COLD registered on the remote's tier-bucket under rustfs-a/
// with the keys of its Secret, bucket app-data, and its rule to-cold
// transitioning after 7 days to the storage class COLD.
func (w *world) expectExampleInRustFS() {
	w.t.Helper()
	live, ok := w.local.Tier("COLD")
	got := fmt.Sprintf("%t %s %s %s %s %s %s %t", ok, live.Type, live.Endpoint, live.Bucket, live.Prefix, live.Region, live.AccessKey, live.SecretKey == remoteSK)
	want := fmt.Sprintf("true rustfs %s tier-bucket rustfs-a/ us-east-1 %s true", w.remote.TierURL(), remoteAK)
	if got != want {
		w.t.Errorf("tier COLD in RustFS (found, type, endpoint, bucket, prefix, region, access key, secret key from the Secret): want %q, got %q", want, got)
	}
	ctx := context.Background()
	if ok, err := w.client().BucketExists(ctx, "app-data"); !ok || err != nil {
		w.t.Errorf("bucket app-data in RustFS: exists %t, error %v", ok, err)
	}
	lc, err := w.client().GetLifecycle(ctx, "app-data")
	if err != nil {
		w.t.Fatalf("cannot get the lifecycle of app-data: %v", err)
	}
	var rules []string
	for _, r := range lc.Rules {
		for _, tr := range r.Transitions {
			rules = append(rules, fmt.Sprintf("%s %s days=%d -> %s", r.ID, r.Status, *tr.Days, tr.StorageClass))
		}
	}
	if diff := cmp.Diff([]string{"to-cold Enabled days=7 -> COLD"}, rules); diff != "" {
		w.t.Errorf("lifecycle of app-data in RustFS: -want +got:\n%s", diff)
	}
}

// expectConflictUntouched checks that the conflicting tier keeps its
// prefix and keys, and that no tier was added or edited and no lifecycle
// put on bucket.
func (w *world) expectConflictUntouched(tier, prefix, bucket string) {
	w.t.Helper()
	if live, _ := w.local.Tier(tier); live.Prefix != prefix || live.AccessKey != outOfBandAK {
		w.t.Errorf("live tier %s changed: prefix %q, access key %q", tier, live.Prefix, live.AccessKey)
	}
	for _, route := range []string{rustfstest.RouteAddTier, rustfstest.RouteEditTier, rustfstest.RoutePutLifecycle} {
		if n := w.local.Count(route); n != 0 {
			w.t.Errorf("requests to %s: want 0 while tier %s is in conflict, got %d", route, tier, n)
		}
	}
	if _, ok := w.local.Lifecycle(bucket); ok {
		w.t.Errorf("bucket %s has a lifecycle configuration; want none while its tier is in conflict", bucket)
	}
}
