package tenant

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	fntenant "github.com/crossplane-contrib/provider-rustfs/internal/function/tenant"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A Tenant in namespace tenancy-b that declares the tier and the bucket of
// the Tenant of namespace tenancy-a, through the same
// ClusterProviderConfig, composes resources that the tenancy rules refuse:
// they write nothing to RustFS, and the second render's status rows give
// their reasons (DuplicateTier, DuplicateBucket) without naming namespace
// tenancy-a or its resources.
func TestTenantInAnotherNamespaceCannotTouchAnotherTenantsObjects(t *testing.T) {
	testenv.Skip(t)
	w := newWorld(t, "tenancy")
	a := example(t, "tenant.yaml", withName("tenancy-a", "tenant-a"), withProviderConfig(w.pc), withTierEndpoint(w.remote.TierURL()))
	w.prepare(spec(t, a), a.GetNamespace())
	ours := xp.render(t, tenantType, a)
	w.apply(ours.composed...)
	w.waitFor(isReady, ours.composed...)
	writes := w.local.Writes()

	b := example(t, "tenant.yaml", withName("tenancy-b", "tenant-b"), withProviderConfig(w.pc), withTierEndpoint(w.remote.TierURL()), withoutAccess())
	w.prepare(spec(t, b), b.GetNamespace())
	theirs := xp.render(t, tenantType, b)
	xp.validate(t, tenantType, theirs.all()...)
	w.apply(theirs.composed...)
	w.waitFor(hasTierConflict, theirs.only(v1alpha1.TierKind))
	w.waitFor(isRefused(v1alpha1.ReasonDuplicateBucket), theirs.only(v1alpha1.BucketKind))
	w.waitFor(isNotSynced, theirs.only(v1alpha1.BucketLifecycleKind))

	second := xp.render(t, tenantType, b, w.liveNow(theirs.composed...)...)
	got := status(t, second.xr)
	want := fntenant.TenantStatus{
		// No credentials: B's refused Tier applied none, and A's are not shown.
		Tiers:   []fntenant.TierStatus{{ItemStatus: fntenant.ItemStatus{Name: "COLD", Reason: string(v1alpha1.ReasonDuplicateTier)}}},
		Buckets: []fntenant.ItemStatus{{Name: "app-data", Reason: string(v1alpha1.ReasonDuplicateBucket)}},
		Summary: &fntenant.StatusSummary{Tiers: "0/1", Buckets: "0/1", Conflicts: 2},
	}
	if diff := cmp.Diff(want, got.TenantStatus, cmpopts.IgnoreFields(fntenant.ItemStatus{}, "Message")); diff != "" {
		t.Errorf("second render of namespace B's Tenant: status rows: -want +got:\n%s", diff)
	}
	for _, r := range append(tierRows(got.Tiers), got.Buckets...) {
		if strings.Contains(r.Message, a.GetNamespace()) || strings.Contains(r.Message, a.GetName()) {
			t.Errorf("row %s names namespace A's Tenant or namespace: %q", r.Name, redact(r.Message))
		}
	}
	if n := w.local.Writes() - writes; n != 0 {
		t.Errorf("writes to RustFS since namespace B's Tenant was applied: want 0, got %d (%d credential edits)",
			n, w.local.Count(rustfstest.RouteEditTier))
	}
}

// isRefused checks that a managed resource is Ready=False with reason.
func isRefused(reason xpv2.ConditionReason) func(g gomega.Gomega, u *unstructured.Unstructured) {
	return func(g gomega.Gomega, u *unstructured.Unstructured) {
		c := conditions(u).GetCondition(xpv2.TypeReady)
		g.Expect(c.Status).To(gomega.Equal(corev1.ConditionFalse), "Ready of %s %s: %s", u.GetKind(), u.GetName(), c.Reason)
		g.Expect(c.Reason).To(gomega.Equal(reason), "Ready reason of %s %s: %s", u.GetKind(), u.GetName(), redact(c.Message))
	}
}
