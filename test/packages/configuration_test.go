package packages

import (
	"fmt"
	"sort"
	"strings"

	"github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The Tenant API the Configuration installs.
var (
	xrds         = map[string]string{"tenants.storage.rustfs.crossplane.io": extV2, "xtenants.storage.rustfs.crossplane.io": extV1}
	compositions = []string{"tenants.storage.rustfs.crossplane.io", "xtenants.storage.rustfs.crossplane.io"}
)

// expectConfigurationInstalled waits until the Configuration is healthy,
// its XRDs are established (the claim XRD offered) and its Compositions
// call the installed function, and checks that Crossplane resolved its
// dependencies to the provider and function already installed, by source
// and by the version just built, without installing others.
func (c *cluster) expectConfigurationInstalled() {
	c.t.Helper()
	c.wait(func(g gomega.Gomega) {
		expectTrue(g, c.get(g, pkgV1, "Configuration", "", configurationName), "Installed", "Healthy")
		rev := only(g, "ConfigurationRevision", c.list(g, pkgV1, "ConfigurationRevision", client.MatchingLabels{labelPackage: configurationName}))
		expectTrue(g, rev, "RevisionHealthy")
		for name, version := range xrds {
			xrd := c.get(g, version, "CompositeResourceDefinition", "", name)
			expectTrue(g, xrd, "Established")
			if version == extV1 {
				expectTrue(g, xrd, "Offered")
			}
		}
		for _, name := range compositions {
			steps, _, _ := unstructured.NestedSlice(c.get(g, extV1, "Composition", "", name).Object, "spec", "pipeline")
			g.Expect(steps).To(gomega.HaveLen(1))
			ref, _, _ := unstructured.NestedString(steps[0].(map[string]any), "functionRef", "name")
			g.Expect(ref).To(gomega.Equal(functionName), "Composition %s calls the installed Function", name)
		}
		lock := c.get(g, pkgBeta, "Lock", "", "lock")
		expectTrue(g, lock, "Resolved")
		g.Expect(lockPackages(lock)).To(gomega.ConsistOf(
			"Provider "+providerPkg.source()+" "+env.version,
			"Function "+functionPkg.source()+" "+env.version,
			"Configuration "+configurationPkg.source()+" "+env.version))
		g.Expect(c.list(g, pkgV1, "Provider")).To(gomega.HaveLen(1), "the dependency on the provider is the Provider installed")
		g.Expect(c.list(g, pkgV1, "Function")).To(gomega.HaveLen(1), "the dependency on the function is the Function installed")
	})
}

// lockPackages lists "kind source version" of each package in the Lock.
func lockPackages(lock *unstructured.Unstructured) []string {
	pkgs, _, _ := unstructured.NestedSlice(lock.Object, "packages")
	var out []string
	for _, p := range pkgs {
		m, _ := p.(map[string]any)
		out = append(out, fmt.Sprintf("%s %s %s", m["kind"], m["source"], m["version"]))
	}
	return out
}

// describe logs what Crossplane created from the packages, for the
// record: packages and revisions, definitions and CRDs, with their state
// and conditions.
func (c *cluster) describe() {
	c.t.Helper()
	g := gomega.NewWithT(c.t)
	for _, k := range []struct{ apiVersion, kind string }{
		{pkgV1, "Provider"}, {pkgV1, "ProviderRevision"}, {pkgV1, "Function"}, {pkgV1, "FunctionRevision"},
		{pkgV1, "Configuration"}, {pkgV1, "ConfigurationRevision"}, {extAlpha, "ManagedResourceDefinition"},
		{extAlpha, "ManagedResourceActivationPolicy"}, {extV1, "CompositeResourceDefinition"}, {extV1, "Composition"},
		{crdV1, "CustomResourceDefinition"}, {"rbac.authorization.k8s.io/v1", "ClusterRole"},
		{"rbac.authorization.k8s.io/v1", "ClusterRoleBinding"}, {"apps/v1", "Deployment"},
	} {
		for _, u := range c.list(g, k.apiVersion, k.kind) {
			if strings.HasPrefix(k.apiVersion, "apiextensions.k8s.io/") || strings.HasPrefix(k.apiVersion, "rbac.") {
				if !strings.Contains(u.GetName(), "rustfs") {
					continue
				}
			}
			c.t.Logf("%s %s%s", k.kind, u.GetName(), summary(&u))
		}
	}
}

// summary is the state and conditions of u, as " state=… Type=Status …".
func summary(u *unstructured.Unstructured) string {
	var parts []string
	if s, ok, _ := unstructured.NestedString(u.Object, "spec", "state"); ok {
		parts = append(parts, "state="+s)
	}
	if s, ok, _ := unstructured.NestedString(u.Object, "spec", "desiredState"); ok {
		parts = append(parts, "desiredState="+s)
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, o := range conds {
		m, _ := o.(map[string]any)
		parts = append(parts, fmt.Sprintf("%s=%s", m["type"], m["status"]))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}
