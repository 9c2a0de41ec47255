package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-rustfs/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-rustfs/internal/clients/rustfs/rustfstest"
	"github.com/crossplane-contrib/provider-rustfs/internal/testenv"
)

// A ClusterProviderConfig that selects namespaces by label serves only
// those: a Bucket in namespace B, unlabelled, is refused before the
// provider reads the admin Secret or sends RustFS a request. Labelling B
// admits it within seconds, and unlabelling A refuses A's Bucket within
// seconds, with controllers that poll hourly: the Namespace watch reacts.
func TestTenancyNamespaceSelectorAdmitsOnlySelectedNamespaces(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, time.Hour)
	tn.label(tn.a, tenantLabel, "yes")
	tn.configure(func(s *v1alpha1.ClusterProviderConfigSpec) {
		s.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{tenantLabel: "yes"}}
	})
	ours := tn.bucket(tn.a, tn.a+"-data")
	tn.create(ours)
	tn.waitReady(ours)

	reads, mark := tn.api.SecretReads(tn.ns, adminSecretName), len(tn.local.Requests())
	theirs := tn.bucket(tn.b, tn.b+"-data")
	tn.create(theirs)
	tn.refusedWithin(eventually, v1alpha1.ReasonProviderConfigNotAllowed, theirs)
	tn.expectSecretReads(tn.ns, adminSecretName, reads, 0, "a Bucket of an unselected namespace")
	// Only the follow-up observe of A's new Bucket may reach RustFS.
	var got []rustfstest.RequestRecord
	for _, r := range tn.local.Requests()[mark:] {
		if !strings.Contains(r.Path, "/"+ours.GetName()) {
			got = append(got, r)
		}
	}
	if len(got) != 0 {
		t.Errorf("a Bucket of an unselected namespace: want no request to RustFS, got %v", got)
	}

	tn.label(tn.b, tenantLabel, "yes")
	tn.readyWithin(within, theirs)
	tn.label(tn.a, tenantLabel, "")
	tn.refusedWithin(within, v1alpha1.ReasonProviderConfigNotAllowed, ours)
}

// With nameScope NamespacePrefix each namespace has its own slice of
// names: its buckets start with "<namespace>-" and its tiers with
// "<NAMESPACE>-"; a transition may also name a shared tier. Namespace B's
// resources that name A's slice, or manage a shared tier, are refused with
// NameOutsideNamespace before any Secret is read or any request is sent.
func TestTenancyNameSlicesKeepNamespacesApart(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, time.Hour)
	tn.seedTier("SHARED-ARCHIVE", "shared-archive/")
	tn.configure(func(s *v1alpha1.ClusterProviderConfigSpec) {
		s.NameScope, s.SharedTiers = v1alpha1.NameScopeNamespacePrefix, []string{"SHARED-ARCHIVE"}
	})
	cold := tierSlice(tn.a) + "COLD"
	ours := []managedObject{
		tn.tier(tn.a, "a-cold", cold, withPrefix(tn.a+"/")), tn.bucket(tn.a, tn.a+"-data"),
		tn.lifecycle(tn.a, "a-data", tn.a+"-data", []v1alpha1.LifecycleRule{rule("to-cold", toTier(30, cold)), rule("archive", toTier(90, "SHARED-ARCHIVE"))}),
	}
	tn.createAll(ours...)
	tn.waitReady(ours...)

	mark, tierReads := len(tn.local.Requests()), tn.api.SecretReads(tn.b, tierSecretName)
	theirs := []managedObject{
		tn.tier(tn.b, "b-cold", tierSlice(tn.a)+"WARM", withPrefix(tn.b+"/")),
		tn.tier(tn.b, "b-shared", "SHARED-ARCHIVE", withPrefix(tn.b+"/")),
		tn.bucket(tn.b, tn.b+"-other", withExternalName(tn.a+"-other")),
		tn.bucket(tn.b, tn.b+"-logs"),
		tn.lifecycle(tn.b, "b-logs", tn.b+"-logs", []v1alpha1.LifecycleRule{rule("to-a", toTier(30, cold))}),
	}
	tn.createAll(theirs...)
	tn.refusedWithin(eventually, v1alpha1.ReasonNameOutsideNamespace, theirs[0], theirs[1], theirs[2], theirs[4])
	tn.waitReady(theirs[3])
	tn.expectSecretReads(tn.b, tierSecretName, tierReads, 0, "Tiers outside namespace B's slice")
	tn.expectNoRequestsSince(mark, "resources outside namespace B's slice", tierSlice(tn.a)+"WARM", "/tier/SHARED-ARCHIVE", tn.a+"-other")
	if got := tn.requestsSince(mark, to(tn.b+"-logs", rustfstest.RouteGetLifecycle, rustfstest.RoutePutLifecycle)); len(got) > 0 {
		t.Errorf("a BucketLifecycle naming namespace A's tier: want no lifecycle request, got %v", got)
	}
}

// With adoption Never, a resource whose object already exists and that has
// no record of having created or adopted it writes nothing and reports
// AdoptionNotAllowed; a new object is created and recorded. Records made
// while adoption was Automatic stay valid after the policy changes.
func TestTenancyAdoptionNeverKeepsRecordsMadeBefore(t *testing.T) {
	testenv.Skip(t)
	tn := newTenancy(t, shortPoll)
	tn.local.CreateBucket(tn.a+"-adopted", false)
	adopted := tn.bucket(tn.a, tn.a+"-adopted", withVersioning(v1alpha1.VersioningEnabled))
	tn.create(adopted)
	tn.waitReady(adopted)

	tn.configure(func(s *v1alpha1.ClusterProviderConfigSpec) { s.Adoption = v1alpha1.AdoptionNever })
	tn.local.CreateBucket(tn.a+"-legacy", false)
	tn.seedTier("LEGACY", "legacy/")
	mark := len(tn.local.Requests())
	refused := []managedObject{tn.bucket(tn.a, tn.a+"-legacy"), tn.tier(tn.a, "a-legacy", "LEGACY", withPrefix("legacy/"))}
	fresh := tn.bucket(tn.a, tn.a+"-fresh")
	tn.createAll(append(refused, fresh)...)
	tn.expectRefused(v1alpha1.ReasonAdoptionNotAllowed, refused...)
	tn.waitReady(fresh)
	tn.awaitPolls(rustfstest.RouteHeadBucket, polls*3, nil)
	if got := tn.requestsSince(mark, to(tn.a+"-legacy", rustfstest.RouteCreateBucket, rustfstest.RoutePutVersioning)); len(got) > 0 {
		t.Errorf("a Bucket that may not adopt: want no write, got %v", got)
	}
	if n := tn.editsOf("LEGACY"); n != 0 {
		t.Errorf("credential edits of tier LEGACY, which adoption Never forbids: want 0, got %d", n)
	}

	// The Bucket adopted before the policy changed still writes.
	if err := env.Edit(tn.ctx, adopted, func() { adopted.Spec.ForProvider.Versioning = v1alpha1.VersioningSuspended }); err != nil {
		t.Fatal(err)
	}
	tn.waitReady(adopted)
	tn.eventually(func(g gomega.Gomega) {
		g.Expect(tn.local.BucketVersioning(tn.a+"-adopted")).To(gomega.Equal("Suspended"), "versioning of the adopted bucket")
	})
}
