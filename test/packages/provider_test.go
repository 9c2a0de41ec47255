package packages

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// labelPackage names the package of a revision.
const labelPackage = "pkg.crossplane.io/package"

// The provider's kinds: those Crossplane installs as
// ManagedResourceDefinitions, inactive until a policy activates them, and
// the ProviderConfig kinds, which stay CRDs, active without a policy.
// Crossplane v2 converts every CRD of a provider but the four ProviderConfig
// kinds (internal/converter/custom_to_managed.go), so the custody records
// are an MRD too, though no managed resource.
var (
	managedKinds = []string{"tiers", "buckets", "bucketlifecycles", "bucketaccesses", "custodyrecords"}
	configKinds  = []string{"providerconfigs", "clusterproviderconfigs", "providerconfigusages"}
)

const providerGroup = "rustfs.m.crossplane.io"

// expectProviderUnpacked waits until Crossplane has unpacked the provider
// package and returns its revision's name: the revision is healthy, pulled
// through the ImageConfig from the test's registry, and waits for its
// Deployment to become Available, which is as far as it gets without a
// kubelet. The Deployment runs the package's image as the ServiceAccount
// the DeploymentRuntimeConfig names.
func (c *cluster) expectProviderUnpacked(reg *registry) string {
	c.t.Helper()
	var rev *unstructured.Unstructured
	c.wait(func(g gomega.Gomega) {
		expectTrue(g, c.get(g, pkgV1, "Provider", "", providerName), "Installed")
		rev = only(g, "ProviderRevision", c.list(g, pkgV1, "ProviderRevision", client.MatchingLabels{labelPackage: providerName}))
		expectTrue(g, rev, "RevisionHealthy")
		s, _, m := condition(rev, "RuntimeHealthy")
		g.Expect([]string{s, m}).To(gomega.Equal([]string{"False",
			`post establish runtime hook failed for package: provider package deployment has no condition of type "Available" yet`}))
		img, _, _ := unstructured.NestedString(rev.Object, "status", "resolvedImage")
		g.Expect(img).To(gomega.Equal(reg.ref(providerPkg)), "the revision's image is pulled from the test's registry")
		d := &appsv1.Deployment{}
		g.Expect(c.kube.Get(c.ctx, client.ObjectKey{Namespace: crossplaneNamespace, Name: rev.GetName()}, d)).To(gomega.Succeed())
		ps := d.Spec.Template.Spec
		g.Expect(ps.ServiceAccountName).To(gomega.Equal(providerSA))
		g.Expect(ps.Containers).To(gomega.HaveLen(1))
		g.Expect(ps.Containers[0].Image).To(gomega.Equal(reg.ref(providerPkg)))
	})
	return rev.GetName()
}

// expectRevisionObjects waits until the provider revision references the
// objects of the package: the ProviderConfig kinds as CRDs and the managed
// resource kinds as ManagedResourceDefinitions. Right after the first
// install the references have names but no kinds (Crossplane takes them
// from the objects it created, whose type the client cleared); a later
// reconcile of the revision fills them in.
func (c *cluster) expectRevisionObjects(rev string) {
	c.t.Helper()
	var want []string
	for _, k := range configKinds {
		want = append(want, "CustomResourceDefinition "+k+"."+providerGroup)
	}
	for _, k := range managedKinds {
		want = append(want, "ManagedResourceDefinition "+k+"."+providerGroup)
	}
	slices.Sort(want)
	c.wait(func(g gomega.Gomega) {
		var refs []string
		objs, _, _ := unstructured.NestedSlice(c.get(g, pkgV1, "ProviderRevision", "", rev).Object, "status", "objectRefs")
		for _, o := range objs {
			m, _ := o.(map[string]any)
			refs = append(refs, fmt.Sprintf("%s %s", m["kind"], m["name"]))
		}
		slices.Sort(refs)
		g.Expect(refs).To(gomega.Equal(want), "objects of the provider revision")
	})
}

// expectInactiveUntilActivated checks safe-start: the managed resource
// kinds are Inactive ManagedResourceDefinitions without CRDs until the
// activation policy of examples/install activates them; then each has a
// CRD whose versions are those of package/provider/crds, as the ProviderConfig
// kinds do from the start.
func (c *cluster) expectInactiveUntilActivated() {
	c.t.Helper()
	c.wait(func(g gomega.Gomega) {
		for _, k := range managedKinds {
			mrd := c.get(g, extAlpha, "ManagedResourceDefinition", "", k+"."+providerGroup)
			state, _, _ := unstructured.NestedString(mrd.Object, "spec", "state")
			g.Expect(state).To(gomega.Equal("Inactive"), "MRD %s before activation", mrd.GetName())
			err := c.kube.Get(c.ctx, client.ObjectKey{Name: mrd.GetName()}, &apiextensionsv1.CustomResourceDefinition{})
			g.Expect(kerrors.IsNotFound(err)).To(gomega.BeTrue(), "CRD %s before activation: %v", mrd.GetName(), err)
		}
	})
	c.install("activation-policy.yaml")
	c.wait(func(g gomega.Gomega) {
		expectTrue(g, c.get(g, extAlpha, "ManagedResourceActivationPolicy", "", "provider-rustfs"), "Healthy")
		for _, k := range managedKinds {
			mrd := c.get(g, extAlpha, "ManagedResourceDefinition", "", k+"."+providerGroup)
			state, _, _ := unstructured.NestedString(mrd.Object, "spec", "state")
			g.Expect(state).To(gomega.Equal("Active"), "MRD %s after activation", mrd.GetName())
			expectTrue(g, mrd, "Established")
		}
		for _, k := range append(slices.Clone(managedKinds), configKinds...) {
			c.expectCRDAsBuilt(g, k)
		}
	})
}

// expectCRDAsBuilt checks that the CRD of kind is established and serves
// the versions (schemas, defaults, CEL rules, columns) of package/provider/crds.
func (c *cluster) expectCRDAsBuilt(g gomega.Gomega, plural string) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	g.Expect(c.kube.Get(c.ctx, client.ObjectKey{Name: plural + "." + providerGroup}, crd)).To(gomega.Succeed())
	established := false
	for _, cd := range crd.Status.Conditions {
		established = established || (cd.Type == apiextensionsv1.Established && cd.Status == apiextensionsv1.ConditionTrue)
	}
	g.Expect(established).To(gomega.BeTrue(), "CRD %s established", crd.Name)
	b, err := repoObjects(c.t, filepath.Join("package", "provider", "crds", providerGroup+"_"+plural+".yaml"))[0].MarshalJSON()
	g.Expect(err).NotTo(gomega.HaveOccurred())
	want := &apiextensionsv1.CustomResourceDefinition{}
	g.Expect(json.Unmarshal(b, want)).To(gomega.Succeed())
	g.Expect(cmp.Diff(withoutEmptySubresources(want.Spec.Versions), withoutEmptySubresources(crd.Spec.Versions))).
		To(gomega.BeEmpty(), "CRD %s versions: -package/provider/crds +installed", crd.Name)
}

// withoutEmptySubresources drops "subresources: {}", which controller-gen
// writes and an installed CRD may hold as absent; both mean none.
func withoutEmptySubresources(vs []apiextensionsv1.CustomResourceDefinitionVersion) []apiextensionsv1.CustomResourceDefinitionVersion {
	out := slices.Clone(vs)
	for i, v := range out {
		if v.Subresources != nil && v.Subresources.Status == nil && v.Subresources.Scale == nil {
			out[i].Subresources = nil
		}
	}
	return out
}

// standInForKubelet sets the provider Deployment's Available condition,
// as kube-controller-manager does once a kubelet runs its pod and the pod
// is ready (neither runs here), and waits until Crossplane reports the
// revision's runtime, and so the Provider, healthy.
func (c *cluster) standInForKubelet(rev string) {
	c.t.Helper()
	c.wait(func(g gomega.Gomega) {
		d := &appsv1.Deployment{}
		g.Expect(c.kube.Get(c.ctx, client.ObjectKey{Namespace: crossplaneNamespace, Name: rev}, d)).To(gomega.Succeed())
		now := metav1.Now()
		d.Status.Conditions = []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue,
			Reason: "MinimumReplicasAvailable", Message: "set by the install test in place of a kubelet", LastUpdateTime: now, LastTransitionTime: now}}
		g.Expect(c.kube.Status().Update(c.ctx, d)).To(gomega.Succeed())
	})
	c.wait(func(g gomega.Gomega) {
		expectTrue(g, c.get(g, pkgV1, "ProviderRevision", "", rev), "RevisionHealthy", "RuntimeHealthy")
		expectTrue(g, c.get(g, pkgV1, "Provider", "", providerName), "Installed", "Healthy")
	})
}

// resourcesOf lists the plurals of kinds, each with its status
// subresource, as Crossplane's RBAC manager grants them.
func resourcesOf(kinds ...string) []string {
	var out []string
	for _, k := range kinds {
		out = append(out, k, k+"/status")
	}
	return out
}
